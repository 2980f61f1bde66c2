package dev.openaccel.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventHandle;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.actor.EventSignal;
import dev.openaccel.testkit.StreamHold;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Interprocess events across nodes, the CUDA IPC analogue: the owner records, another node opens
 * the handle and follows the owner's records. Port of the intent of test_event.py's IPC cases.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RemoteEventTest {
  private static final Duration LONG = Duration.ofSeconds(10);
  private TestCluster cluster;
  private Accelerator owner;
  private Accelerator opener;

  @BeforeAll
  void start() {
    cluster = TestCluster.start(2);
    owner = cluster.node(0).accelerator();
    opener = cluster.node(1).accelerator();
  }

  @AfterAll
  void stop() {
    cluster.close();
  }

  private Event interprocess() {
    return owner.newEvent(EventOptions.defaults().withInterprocess(true));
  }

  /** Records {@code event} on a new stream of the owner, behind the returned hold. */
  private StreamHold recordBehindHold(Event event) {
    Stream stream = owner.newStream(owner.currentDevice());
    StreamHold hold = StreamHold.on(stream);
    event.record(stream);
    return hold;
  }

  @Test
  void anOpenedEventBlocksAStreamOfTheOpenerUntilTheOwnersRecordCompletes() throws Exception {
    Event event = interprocess();
    StreamHold hold = recordBehindHold(event);
    Event opened = opener.openEvent(event.handle());
    Stream waiting = opener.newStream(opener.currentDevice());
    CountDownLatch ran = new CountDownLatch(1);
    opened.block(waiting);
    waiting.launch("after", ran::countDown);
    assertFalse(ran.await(200, TimeUnit.MILLISECONDS), "ran before the owner's record completed");
    hold.release();
    assertTrue(ran.await(10, TimeUnit.SECONDS));
  }

  @Test
  void synchronizeAndCompletionFollowTheOwnersLatestRecord() throws Exception {
    Event event = interprocess();
    StreamHold first = recordBehindHold(event);
    Event opened = opener.openEvent(event.handle());
    assertFalse(opened.synchronize(Duration.ofMillis(200)));
    first.release();
    assertTrue(opened.synchronize(LONG));

    StreamHold second = recordBehindHold(event);
    assertFalse(opened.synchronize(Duration.ofMillis(200)), "must follow the new record");
    var completion = opened.completion().toCompletableFuture();
    assertFalse(completion.isDone());
    second.release();
    completion.get(10, TimeUnit.SECONDS);
    assertTrue(opened.synchronize(LONG));
  }

  @Test
  void queryReportsTheOwnersStateWithinARoundTrip() {
    Event event = interprocess();
    StreamHold hold = recordBehindHold(event);
    Event opened = opener.openEvent(event.handle());
    assertFalse(opened.query());
    hold.release();
    assertTrue(eventually(opened::query), "query never saw the completion");

    StreamHold again = recordBehindHold(event);
    assertTrue(eventually(() -> !opened.query()), "query never saw the new record");
    again.release();
    assertTrue(eventually(opened::query));
  }

  @Test
  void subscribeSendsOneCompletedSignalForTheOwnersRecord() {
    Event event = interprocess();
    StreamHold hold = recordBehindHold(event);
    Event opened = opener.openEvent(event.handle());
    TestProbe<EventSignal> probe = TestProbe.create(cluster.system(1));
    opened.subscribe(probe.getRef());
    probe.expectNoMessage(Duration.ofMillis(200));
    hold.release();
    EventSignal.Completed done = probe.expectMessageClass(EventSignal.Completed.class, LONG);
    assertEquals(event.id(), done.eventId());
    assertEquals(1, done.generation());
    probe.expectNoMessage(Duration.ofMillis(100));
  }

  @Test
  void aFailedOwnerRecordFailsTheOpenersWaitsNamingTheOwner() {
    Event event = interprocess();
    Stream stream = owner.newStream(owner.currentDevice());
    stream.launch(
        "broken",
        () -> {
          throw new IllegalStateException("broken on the owner");
        });
    event.record(stream);
    Event opened = opener.openEvent(event.handle());
    DeviceExecutionException e =
        assertThrows(DeviceExecutionException.class, () -> opened.synchronize(LONG));
    assertTrue(e.getMessage().contains(cluster.node(0).selfNode()), e.getMessage());
    assertTrue(e.getMessage().contains("broken on the owner"), e.getMessage());

    Stream waiting = opener.newStream(opener.currentDevice());
    opened.block(waiting);
    Event after = waiting.recordEvent();
    assertThrows(DeviceExecutionException.class, () -> after.synchronize(LONG));
  }

  @Test
  void recordingAnOpenedEventIsUnsupported() {
    Event event = interprocess();
    event.record(owner.newStream(owner.currentDevice()));
    Event opened = opener.openEvent(event.handle());
    Stream stream = opener.newStream(opener.currentDevice());
    UnsupportedOperationException e =
        assertThrows(UnsupportedOperationException.class, () -> opened.record(stream));
    assertTrue(e.getMessage().contains("record it on its owner"), e.getMessage());
  }

  @Test
  void elapsedTimeOfAnOpenedEventIsRejected() {
    Event event = interprocess();
    event.record(owner.newStream(owner.currentDevice()));
    Event opened = opener.openEvent(event.handle());
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> opened.elapsedTime(opened));
    assertTrue(e.getMessage().contains("must be created with enable_timing"), e.getMessage());
  }

  @Test
  void timingTogetherWithInterprocessIsRejectedAtCreation() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> owner.newEvent(EventOptions.timing().withInterprocess(true)));
    assertTrue(e.getMessage().contains("interprocess"), e.getMessage());
  }

  @Test
  void aHandleOfAnEventTheOwnerDoesNotHaveIsRejectedAtOpen() {
    EventHandle bogus =
        new EventHandle(owner.currentAccelerator(), 0, 987_654, cluster.node(0).selfNode());
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> opener.openEvent(bogus));
    assertTrue(e.getMessage().contains("no live interprocess"), e.getMessage());
  }

  @Test
  void aHandleOfANodeOutsideTheClusterIsRejectedAtOpen() {
    EventHandle stranger =
        new EventHandle(owner.currentAccelerator(), 0, 1, "pekko://openaccel@127.0.0.1:9");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> opener.openEvent(stranger));
    assertTrue(e.getMessage().contains("not a member of this cluster"), e.getMessage());
  }

  @Test
  void anOpenedEventReportsTheOwnersIdentity() {
    Event event = interprocess();
    event.record(owner.newStream(owner.currentDevice()));
    Event opened = opener.openEvent(event.handle());
    assertEquals(event.id(), opened.id());
    assertEquals(event.deviceType(), opened.deviceType());
    assertEquals(event.handle(), opened.handle());
    assertTrue(opened.options().interprocess());
    assertTrue(opened.wasRecorded());
  }

  /** Polls {@code condition} (it sends at most one message at a time) for up to ten seconds. */
  private static boolean eventually(java.util.function.BooleanSupplier condition) {
    long deadline = System.nanoTime() + LONG.toNanos();
    while (System.nanoTime() < deadline) {
      if (condition.getAsBoolean()) {
        return true;
      }
      Thread.onSpinWait();
    }
    return false;
  }
}
