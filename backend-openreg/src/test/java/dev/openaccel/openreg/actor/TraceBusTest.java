package dev.openaccel.openreg.actor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.trace.TraceEvent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.apache.pekko.actor.testkit.typed.annotations.JUnit5TestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJUnit5Extension;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The trace bus: subscription rules, every hook kind, stopped subscribers, and JFR events. */
@ExtendWith(TestKitJUnit5Extension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TraceBusTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  @JUnit5TestKit public ActorTestKit testKit = ActorTestKit.create();

  private Accelerator accelerator() {
    return Accelerator.get(testKit.system());
  }

  @Test
  void subscribingANullRefIsRejected() {
    NullPointerException e =
        assertThrows(NullPointerException.class, () -> accelerator().trace().subscribe(null));
    assertTrue(e.getMessage().contains("subscriber"));
  }

  @Test
  void subscribingTwiceIsRejected() {
    TestProbe<TraceEvent> probe = testKit.createTestProbe();
    accelerator().trace().subscribe(probe.ref());
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> accelerator().trace().subscribe(probe.ref()));
    assertTrue(e.getMessage().contains("already subscribed"));
    accelerator().trace().unsubscribe(probe.ref());
  }

  @Test
  void unsubscribingTwiceIsRejected() {
    TestProbe<TraceEvent> probe = testKit.createTestProbe();
    accelerator().trace().subscribe(probe.ref());
    accelerator().trace().unsubscribe(probe.ref());
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> accelerator().trace().unsubscribe(probe.ref()));
    assertTrue(e.getMessage().contains("not subscribed"));
  }

  @Test
  void anUnsubscribedProbeReceivesNothing() {
    TestProbe<TraceEvent> probe = testKit.createTestProbe();
    accelerator().trace().subscribe(probe.ref());
    accelerator().trace().unsubscribe(probe.ref());
    Stream stream = accelerator().newStream(Device.parse("openreg:1"));
    stream.launch("unseen", () -> {});
    stream.synchronize();
    probe.expectNoMessage(Duration.ofMillis(100));
  }

  @Test
  void streamDeviceAndEventHooksAreReported() {
    TestProbe<TraceEvent> probe = testKit.createTestProbe();
    accelerator().trace().subscribe(probe.ref());
    Device device = Device.parse("openreg:1");
    Stream stream = accelerator().newStream(device);
    var event = accelerator().newEvent();
    event.record(stream);
    event.synchronize();
    accelerator().synchronize(device);
    event.close();
    List<TraceEvent> seen = probe.receiveSeveralMessages(6, WAIT);
    accelerator().trace().unsubscribe(probe.ref());
    assertEquals(
        List.of(
            "StreamCreated",
            "EventCreated",
            "EventRecorded",
            "EventSynchronized",
            "DeviceSynchronized",
            "EventDeleted"),
        seen.stream().map(e -> e.getClass().getSimpleName()).collect(Collectors.toList()));
    assertTrue(seen.stream().allMatch(e -> e.device().equals(device)));
    TraceEvent.StreamCreated created = (TraceEvent.StreamCreated) seen.get(0);
    assertEquals(stream.id(), created.streamId());
    assertTrue(seen.get(5).atNanos() >= seen.get(0).atNanos(), "monotonic timestamps");
  }

  @Test
  void aModuleOnThePublicApiPublishesItsOwnEventsToTheSubscribers() {
    TestProbe<TraceEvent> probe = testKit.createTestProbe();
    accelerator().trace().subscribe(probe.ref());
    assertTrue(accelerator().trace().enabled(), "a subscriber listens");
    TraceEvent.CollectiveFinished op =
        new TraceEvent.CollectiveFinished(
            Device.parse("openreg:0"), 7, "grads", "allReduce", 3, 4096, false, 10, 20);
    accelerator().trace().publish(op);
    assertEquals(op, probe.expectMessageClass(TraceEvent.CollectiveFinished.class, WAIT));
    accelerator().trace().unsubscribe(probe.ref());
    accelerator().trace().publish(op);
    probe.expectNoMessage(Duration.ofMillis(100));
    NullPointerException e =
        assertThrows(NullPointerException.class, () -> accelerator().trace().publish(null));
    assertTrue(e.getMessage().contains("event"));
  }

  @Test
  void aStoppedSubscriberIsRemoved() {
    TestProbe<TraceEvent> probe = testKit.createTestProbe();
    accelerator().trace().subscribe(probe.ref());
    probe.stop();
    // Once the bus has seen it stop, the ref counts as not subscribed.
    probe.awaitAssert(
        WAIT,
        () ->
            assertThrows(
                IllegalArgumentException.class,
                () -> accelerator().trace().unsubscribe(probe.ref())));
  }

  @Test
  void kernelsAppearInAFlightRecording(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("trace.jfr");
    try (Recording recording = new Recording()) {
      recording.enable("dev.openaccel.Trace");
      recording.start();
      Stream stream = accelerator().newStream(Device.parse("openreg:0"));
      stream.launch("recorded-kernel", () -> {});
      stream.synchronize();
      recording.stop();
      recording.dump(file);
    }
    assertTrue(Files.size(file) > 0);
    List<RecordedEvent> events = RecordingFile.readAllEvents(file);
    List<String> kernels =
        events.stream()
            .filter(e -> e.getEventType().getName().equals("dev.openaccel.Trace"))
            .filter(e -> e.getString("details").contains("recorded-kernel"))
            .map(e -> e.getString("kind"))
            .collect(Collectors.toList());
    assertEquals(List.of("KernelStarted", "KernelFinished"), kernels);
    assertFalse(events.isEmpty());
  }
}
