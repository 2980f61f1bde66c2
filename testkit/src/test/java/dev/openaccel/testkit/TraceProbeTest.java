package dev.openaccel.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.Stream;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A trace probe sees the kernels and events of its accelerator and asserts their order. */
@OpenAccelTest
class TraceProbeTest {

  @Test
  void kernelsAreListedInStartOrder(Accelerator accelerator) {
    try (Stream stream = accelerator.newStream();
        TraceProbe probe = TraceProbe.attach(accelerator)) {
      stream.launch("a", () -> {});
      stream.launch("b", () -> {});
      stream.launch("c", () -> {});
      stream.synchronize();
      assertEquals(List.of("a", "b", "c"), probe.kernels());
    }
  }

  @Test
  void kernelEndedBeforeWaitsForKernelsAcrossStreams(Accelerator accelerator) {
    try (Stream producer = accelerator.newStream();
        Stream consumer = accelerator.newStream();
        TraceProbe probe = TraceProbe.attach(accelerator)) {
      StreamHold hold = StreamHold.on(producer);
      producer.launch("produce", () -> {});
      consumer.waitStream(producer);
      consumer.launch("consume", () -> {});
      assertEquals(List.of(), probe.kernels()); // both wait for the hold
      hold.release(); // the assertion waits for both kernels
      probe.assertKernelEndedBefore("produce", "consume");
      consumer.synchronize();
    }
  }

  @Test
  void aKernelThatStartedFirstFailsTheAssertionNamingBoth(Accelerator accelerator) {
    try (Stream stream = accelerator.newStream();
        TraceProbe probe = TraceProbe.attach(accelerator)) {
      stream.launch("first", () -> {});
      stream.launch("second", () -> {});
      AssertionError failure =
          assertThrows(
              AssertionError.class, () -> probe.assertKernelEndedBefore("second", "first"));
      String message = failure.getMessage();
      assertTrue(
          message.matches(
              "expected kernel 'second' to end before kernel 'first' started, but 'first' started"
                  + " \\d+ ns before 'second' ended; kernels seen: \\[first on stream \\d+ \\+0\\.\\.\\+\\d+"
                  + " ns, second on stream \\d+ \\+\\d+\\.\\.\\+\\d+ ns\\]"),
          message);
      stream.synchronize();
    }
  }

  @Test
  void aKernelNeverSeenFailsTheAssertionAfterTheTimeout(Accelerator accelerator) {
    try (Stream stream = accelerator.newStream();
        TraceProbe probe = TraceProbe.attach(accelerator, Duration.ofMillis(200))) {
      stream.launch("ran", () -> {});
      AssertionError failure =
          assertThrows(AssertionError.class, () -> probe.assertKernelEndedBefore("ran", "never"));
      assertTrue(
          failure
              .getMessage()
              .matches(
                  "expected kernel 'ran' to end before kernel 'never' started, but within PT0.2S"
                      + " 'never' did not start; kernels seen: \\[ran on stream \\d+ .*\\]"),
          failure.getMessage());
      stream.synchronize();
    }
  }

  @Test
  void eventsCompletedInOrderFollowsCompletionNotRecording(Accelerator accelerator) {
    try (Stream held = accelerator.newStream();
        Stream free = accelerator.newStream();
        TraceProbe probe = TraceProbe.attach(accelerator)) {
      StreamHold hold = StreamHold.on(held);
      try (Event recordedFirst = held.recordEvent();
          Event recordedSecond = free.recordEvent()) {
        recordedSecond.synchronize();
        hold.release();
        probe.assertEventsCompletedInOrder(recordedSecond, recordedFirst);

        AssertionError failure =
            assertThrows(
                AssertionError.class,
                () -> probe.assertEventsCompletedInOrder(recordedFirst, recordedSecond));
        String first = "event " + recordedFirst.id() + " on openreg:0";
        String second = "event " + recordedSecond.id() + " on openreg:0";
        assertTrue(
            failure
                .getMessage()
                .matches(
                    "expected events \\["
                        + first
                        + ", "
                        + second
                        + "\\] to complete in that order, but they completed in the order \\["
                        + second
                        + " at \\+0 ns, "
                        + first
                        + " at \\+\\d+ ns\\]"),
            failure.getMessage());
      }
    }
  }

  @Test
  void anEventNotCompletedFailsTheAssertionAfterTheTimeout(Accelerator accelerator) {
    try (Stream held = accelerator.newStream();
        TraceProbe probe = TraceProbe.attach(accelerator, Duration.ofMillis(200));
        StreamHold hold = StreamHold.on(held);
        Event before = held.recordEvent();
        Event waiting = held.recordEvent()) {
      AssertionError failure =
          assertThrows(
              AssertionError.class, () -> probe.assertEventsCompletedInOrder(before, waiting));
      assertTrue(
          failure
              .getMessage()
              .matches(
                  "expected events \\[event \\d+ on openreg:0, event \\d+ on openreg:0\\] to"
                      + " complete in that order, but the completion of \\[event "
                      + before.id()
                      + " on openreg:0\\] did not come within PT0.2S"),
          failure.getMessage());
    }
  }

  @Test
  void eventsRecordedOnOneStreamCompleteInRecordOrder(Accelerator accelerator) {
    try (Stream stream = accelerator.newStream();
        TraceProbe probe = TraceProbe.attach(accelerator);
        Event one = stream.recordEvent();
        Event two = stream.recordEvent();
        Event three = stream.recordEvent()) {
      probe.assertEventsCompletedInOrder(one, two, three);
    }
  }

  @Test
  void misuseIsRejectedNamingIt(Accelerator accelerator) {
    try (Stream stream = accelerator.newStream();
        Event recorded = stream.recordEvent();
        Event unrecorded = accelerator.newEvent()) {
      TraceProbe probe = TraceProbe.attach(accelerator);
      IllegalArgumentException never =
          assertThrows(
              IllegalArgumentException.class,
              () -> probe.assertEventsCompletedInOrder(recorded, unrecorded));
      assertEquals(
          "events[1] was never recorded: it has no completion to order", never.getMessage());
      assertThrows(
          IllegalArgumentException.class, () -> probe.assertEventsCompletedInOrder(recorded));
      assertThrows(
          IllegalArgumentException.class, () -> TraceProbe.attach(accelerator, Duration.ZERO));
      probe.close();
      probe.close();
      IllegalStateException closed = assertThrows(IllegalStateException.class, probe::kernels);
      assertTrue(closed.getMessage().endsWith(", closed) is closed"), closed.getMessage());
      recorded.synchronize();
    }
  }
}
