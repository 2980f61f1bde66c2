package dev.openaccel.openreg.actor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.conformance.Gates;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.actor.EventSignal;
import dev.openaccel.runtime.trace.TraceEvent;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Collectors;
import org.apache.pekko.actor.testkit.typed.annotations.JUnit5TestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJUnit5Extension;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A two-stream producer/consumer program observed the way a user of an actor system would: one
 * probe subscribed to an event's signals, one to the trace bus.
 */
@ExtendWith(TestKitJUnit5Extension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ProducerConsumerSignalsTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  @JUnit5TestKit public ActorTestKit testKit = ActorTestKit.create();

  @Test
  void probesSeeTheExactProducerConsumerSequence() throws Exception {
    Accelerator accelerator = Accelerator.get(testKit.system());
    Device device = Device.parse("openreg:0");
    Stream producer = accelerator.newStream(device);
    Stream consumer = accelerator.newStream(device);
    Event ready = accelerator.newEvent();
    TestProbe<TraceEvent> trace = testKit.createTestProbe();
    TestProbe<EventSignal> signals = testKit.createTestProbe();
    CountDownLatch gate = new CountDownLatch(1);
    accelerator.trace().subscribe(trace.ref());

    producer.launch("produce", () -> Gates.await(gate));
    ready.record(producer);
    consumer.waitEvent(ready);
    consumer.launch("consume", () -> {});
    ready.subscribe(signals.ref());
    signals.expectNoMessage(Duration.ofMillis(50)); // the producer is still gated
    gate.countDown();

    EventSignal signal = signals.expectMessageClass(EventSignal.class, WAIT);
    EventSignal.Completed completed = assertInstanceOf(EventSignal.Completed.class, signal);
    assertEquals(ready.id(), completed.eventId());
    assertEquals(1, completed.generation());
    consumer.synchronize();
    List<TraceEvent> events = trace.receiveSeveralMessages(8, WAIT);
    accelerator.trace().unsubscribe(trace.ref());
    signals.expectNoMessage(Duration.ofMillis(50)); // exactly one signal per subscription

    // Host-side hooks arrive in program order, from the test thread.
    assertEquals(
        List.of("EventCreated", "EventRecorded", "EventWaited", "StreamSynchronized"),
        kinds(events, e -> !(e instanceof TraceEvent.KernelStarted || isFinished(e))));
    // Device-side hooks arrive in stream order, each kernel started then finished.
    assertEquals(
        List.of("KernelStarted:produce", "KernelFinished:produce"), kernels(events, producer));
    assertEquals(
        List.of("KernelStarted:consume", "KernelFinished:consume"), kernels(events, consumer));
    long produced = finishedAt(events, "produce");
    long consumeStart = startedAt(events, "consume");
    assertTrue(produced <= consumeStart, "consume started before produce finished");
    assertTrue(completed.completedAtNanos() >= produced, "event completed before produce finished");
  }

  private static boolean isFinished(TraceEvent e) {
    return e instanceof TraceEvent.KernelFinished;
  }

  private static List<String> kinds(
      List<TraceEvent> events, java.util.function.Predicate<TraceEvent> keep) {
    return events.stream()
        .filter(keep)
        .map(e -> e.getClass().getSimpleName())
        .collect(Collectors.toList());
  }

  private static List<String> kernels(List<TraceEvent> events, Stream stream) {
    return events.stream()
        .map(
            e -> {
              if (e instanceof TraceEvent.KernelStarted s && s.streamId() == stream.id()) {
                return "KernelStarted:" + s.kernel();
              }
              if (e instanceof TraceEvent.KernelFinished f && f.streamId() == stream.id()) {
                return "KernelFinished:" + f.kernel();
              }
              return null;
            })
        .filter(s -> s != null)
        .collect(Collectors.toList());
  }

  private static long finishedAt(List<TraceEvent> events, String kernel) {
    return events.stream()
        .filter(e -> e instanceof TraceEvent.KernelFinished f && f.kernel().equals(kernel))
        .findFirst()
        .orElseThrow()
        .atNanos();
  }

  private static long startedAt(List<TraceEvent> events, String kernel) {
    return events.stream()
        .filter(e -> e instanceof TraceEvent.KernelStarted s && s.kernel().equals(kernel))
        .findFirst()
        .orElseThrow()
        .atNanos();
  }
}
