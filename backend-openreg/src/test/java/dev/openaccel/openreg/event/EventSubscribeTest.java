package dev.openaccel.openreg.event;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.openreg.testing.Gate;
import dev.openaccel.openreg.testing.Kernels;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.actor.EventSignal;
import java.time.Duration;
import org.apache.pekko.actor.testkit.typed.annotations.JUnit5TestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.JUnit5TestKitBuilder;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJUnit5Extension;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link Event#subscribe}: a {@link TestProbe} of {@link EventSignal} gets exactly one signal for
 * the record that was latest when it subscribed, {@code Completed} or {@code Failed}. The
 * accelerator is the extension of the test kit's own actor system.
 */
@ExtendWith(TestKitJUnit5Extension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EventSubscribeTest {
  private static final Device D0 = Device.parse("openreg:0");
  private static final Duration SIGNAL = Duration.ofSeconds(10);
  private static final Duration QUIET = Duration.ofMillis(200);

  @JUnit5TestKit
  ActorTestKit testKit = new JUnit5TestKitBuilder().withName("event-subscribe").build();

  private Accelerator acc;

  @BeforeAll
  void start() {
    acc = Accelerator.get(testKit.system());
  }

  @Test
  void subscriberGetsExactlyOneCompletedForThePendingRecord() throws Exception {
    TestProbe<EventSignal> probe = testKit.createTestProbe();
    Stream stream = acc.newStream(D0);
    try (Gate gate = new Gate()) {
      stream.launch("gate", gate::hold);
      Event event = stream.recordEvent();
      event.subscribe(probe.getRef());
      probe.expectNoMessage(QUIET);
      gate.open();
      EventSignal.Completed done = probe.expectMessageClass(EventSignal.Completed.class, SIGNAL);
      assertEquals(event.id(), done.eventId());
      assertEquals(1, done.generation());
      probe.expectNoMessage(QUIET);
    }
  }

  @Test
  void subscriberToCompletedWorkIsSignalledAtOnce() {
    TestProbe<EventSignal> probe = testKit.createTestProbe();
    Event event = acc.newStream(D0).recordEvent();
    event.synchronize();
    event.subscribe(probe.getRef());
    EventSignal.Completed done = probe.expectMessageClass(EventSignal.Completed.class, SIGNAL);
    assertEquals(event.id(), done.eventId());
    probe.expectNoMessage(QUIET);
  }

  @Test
  void subscriberToANeverRecordedEventGetsCompletedAtOnce() {
    TestProbe<EventSignal> probe = testKit.createTestProbe();
    acc.newEvent().subscribe(probe.getRef());
    EventSignal.Completed done = probe.expectMessageClass(EventSignal.Completed.class, SIGNAL);
    assertEquals(0, done.generation());
    probe.expectNoMessage(QUIET);
  }

  @Test
  void subscriptionCapturesTheRecordThatIsLatestAtCallTime() throws Exception {
    TestProbe<EventSignal> early = testKit.createTestProbe();
    TestProbe<EventSignal> late = testKit.createTestProbe();
    Stream stream = acc.newStream(D0);
    try (Gate first = new Gate();
        Gate second = new Gate()) {
      stream.launch("first", first::hold);
      Event event = stream.recordEvent();
      event.subscribe(early.getRef());
      stream.launch("second", second::hold);
      event.record(stream);
      event.subscribe(late.getRef());
      first.open();
      assertEquals(1, early.expectMessageClass(EventSignal.Completed.class, SIGNAL).generation());
      late.expectNoMessage(QUIET);
      assertFalse(second.isOpen());
      second.open();
      assertEquals(2, late.expectMessageClass(EventSignal.Completed.class, SIGNAL).generation());
      early.expectNoMessage(QUIET);
    }
  }

  @Test
  void subscriberGetsFailedWhenTheRecordedWorkFailed() {
    TestProbe<EventSignal> probe = testKit.createTestProbe();
    Stream stream = acc.newStream(D0);
    IllegalStateException boom = new IllegalStateException("boom");
    stream.launch("exploding-kernel", Kernels.throwing(boom));
    Event event = stream.recordEvent();
    event.subscribe(probe.getRef());
    EventSignal.Failed failed = probe.expectMessageClass(EventSignal.Failed.class, SIGNAL);
    assertEquals(event.id(), failed.eventId());
    assertEquals(1, failed.generation());
    DeviceExecutionException cause =
        assertInstanceOf(DeviceExecutionException.class, failed.cause());
    assertTrue(cause.getMessage().contains("exploding-kernel"), cause.getMessage());
    assertSame(boom, cause.getCause());
    probe.expectNoMessage(QUIET);
  }

  @Test
  void completedSignalsCarryTheTimestampsElapsedTimeUses() {
    TestProbe<EventSignal> probe = testKit.createTestProbe();
    Stream stream = acc.newStream(D0);
    Event start = acc.newEvent(EventOptions.timing());
    Event end = acc.newEvent(EventOptions.timing());
    start.record(stream);
    stream.launch("busy", Kernels.busy(Duration.ofMillis(1)));
    end.record(stream);
    end.synchronize();
    start.subscribe(probe.getRef());
    long startedAt =
        probe.expectMessageClass(EventSignal.Completed.class, SIGNAL).completedAtNanos();
    end.subscribe(probe.getRef());
    long endedAt = probe.expectMessageClass(EventSignal.Completed.class, SIGNAL).completedAtNanos();
    assertEquals((endedAt - startedAt) / 1_000_000.0, start.elapsedTime(end), 1e-9);
  }

  @Test
  void aRecordOnAnIdleStreamCarriesOneTimeNoEarlierThanTheRecord() {
    TestProbe<EventSignal> probe = testKit.createTestProbe();
    Stream stream = acc.newStream(D0);
    stream.launch("before", () -> {});
    stream.synchronize(); // idle: the record below completes where it is made
    Event event = acc.newEvent();
    long beforeRecord = System.nanoTime();
    event.record(stream);
    assertTrue(event.query());
    event.subscribe(probe.getRef());
    EventSignal.Completed first = probe.expectMessageClass(EventSignal.Completed.class, SIGNAL);
    long afterFirst = System.nanoTime();
    event.subscribe(probe.getRef());
    EventSignal.Completed second = probe.expectMessageClass(EventSignal.Completed.class, SIGNAL);
    assertEquals(1, first.generation());
    assertTrue(first.completedAtNanos() - beforeRecord >= 0, "stamped before the record");
    assertTrue(afterFirst - first.completedAtNanos() >= 0, "stamped after the first signal");
    assertEquals(first, second, "every reader of the record sees the same time");
    event.close();
    stream.close();
  }

  @Test
  void subscribeToAClosedEventIsRejected() {
    TestProbe<EventSignal> probe = testKit.createTestProbe();
    Event event = acc.newStream(D0).recordEvent();
    event.close();
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> event.subscribe(probe.getRef()));
    assertTrue(e.getMessage().contains("closed"), e.getMessage());
  }
}
