package dev.openaccel.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.Capability;
import dev.openaccel.runtime.spi.EventFlag;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * Conformance of {@link Capability#TIMING}: declared, timing events measure the interval between
 * their completions on one monotonic clock, with the misuse errors in the order {@code EventChecks}
 * applies them; undeclared, creating a timing event is reported as unsupported. Port of the intent
 * of the elapsed-time cases of torch_openreg/tests/test_event.py.
 */
public abstract class TimingTck extends BackendTck {
  private static final long BUSY_NANOS = 2_000_000;

  private Event timingEvent() {
    return newEvent(EventOptions.timing());
  }

  @Test
  void timingEventsAreUnsupportedWhenUndeclared() {
    assumeUndeclared(Capability.TIMING);
    UnsupportedOperationException e = assertUnsupported(this::timingEvent);
    assertTrue(
        e.getMessage().toLowerCase(Locale.ROOT).contains("timing"),
        () -> "the message does not name the option: " + e.getMessage());
    Stream stream = newStream(0);
    assertUnsupported(() -> backend().record(null, stream, -1, EventFlag.BACKEND_DEFAULT));
  }

  @Test
  void elapsedTimeOfEventsWithoutTimingIsRejected() {
    assumeDeclared(Capability.EVENTS);
    Stream stream = newStream(0);
    try (Event start = stream.recordEvent();
        Event end = stream.recordEvent()) {
      assertTrue(end.synchronize(WAIT));
      assertThrowsWith(
          IllegalArgumentException.class,
          "must be created with enable_timing",
          () -> start.elapsedTime(end));
    }
  }

  @Test
  void elapsedTimeCoversTheWorkBetweenTheRecords() {
    assumeDeclared(Capability.TIMING);
    Stream stream = newStream(0);
    try (Event start = timingEvent();
        Event end = timingEvent()) {
      start.record(stream);
      stream.launch("busy", () -> spin(BUSY_NANOS));
      end.record(stream);
      assertTrue(end.synchronize(WAIT));
      double millis = start.elapsedTime(end);
      assertTrue(
          millis >= BUSY_NANOS / 1e6, about("elapsed " + millis + " ms around a 2 ms kernel"));
      Duration elapsed = start.elapsed(end);
      assertTrue(
          Math.abs(elapsed.toNanos() - millis * 1e6) <= 1.0,
          () -> "elapsed() " + elapsed + " disagrees with elapsedTime() " + millis + " ms");
    }
  }

  @Test
  void elapsedTimeIsNeverNegativeForRecordsInStreamOrder() {
    assumeDeclared(Capability.TIMING);
    Stream stream = newStream(0);
    try (Event start = timingEvent();
        Event end = timingEvent()) {
      for (int i = 0; i < 20; i++) {
        start.record(stream);
        end.record(stream);
        assertTrue(end.synchronize(WAIT));
        assertTrue(start.elapsedTime(end) >= 0, about("negative elapsed time in stream order"));
      }
    }
  }

  @Test
  void elapsedTimeIsNegativeWhenTheEndCompletedFirst() {
    assumeDeclared(Capability.TIMING);
    Stream stream = newStream(0);
    try (Event first = timingEvent();
        Event second = timingEvent()) {
      first.record(stream);
      stream.launch("busy", () -> spin(BUSY_NANOS));
      second.record(stream);
      assertTrue(second.synchronize(WAIT));
      assertTrue(second.elapsedTime(first) <= -BUSY_NANOS / 1e6);
    }
  }

  @Test
  void elapsedTimeWithOneEventWithoutTimingIsRejected() {
    assumeDeclared(Capability.TIMING);
    Stream stream = newStream(0);
    try (Event start = timingEvent();
        Event end = newEvent()) {
      start.record(stream);
      end.record(stream);
      assertTrue(end.synchronize(WAIT));
      assertThrowsWith(
          IllegalArgumentException.class,
          "must be created with enable_timing",
          () -> start.elapsedTime(end));
    }
  }

  @Test
  void elapsedTimeBeforeBothRecordsIsRejected() {
    assumeDeclared(Capability.TIMING);
    try (Event start = timingEvent();
        Event end = timingEvent()) {
      start.record(newStream(0));
      assertThrowsWith(
          IllegalStateException.class,
          "must be recorded before calculating elapsed time",
          () -> start.elapsedTime(end));
    }
  }

  @Test
  void elapsedTimeBeforeCompletionIsRejected() {
    assumeDeclared(Capability.TIMING);
    CountDownLatch gate = gate();
    Stream stream = newStream(0);
    try (Event start = timingEvent();
        Event end = timingEvent()) {
      start.record(stream);
      hold(stream, gate);
      end.record(stream);
      assertThrowsWith(
          IllegalStateException.class,
          "must be completed before calculating elapsed time",
          () -> start.elapsedTime(end));
      gate.countDown();
      assertTrue(end.synchronize(WAIT));
      assertTrue(start.elapsedTime(end) >= 0);
    }
  }

  @Test
  void elapsedTimeAcrossDevicesIsRejected() {
    assumeDeclared(Capability.TIMING);
    assumeDevices(2);
    try (Event start = timingEvent();
        Event end = timingEvent()) {
      start.record(newStream(0));
      end.record(newStream(1));
      assertTrue(start.synchronize(WAIT) && end.synchronize(WAIT));
      assertThrowsWith(
          IllegalArgumentException.class,
          "must be recorded on the same device",
          () -> start.elapsedTime(end));
    }
  }

  @Test
  void timingEventsWorkLikeOtherEvents() throws Exception {
    assumeDeclared(Capability.TIMING);
    CountDownLatch gate = gate();
    Stream producer = newStream(0);
    Stream consumer = newStream(0);
    try (Event event = timingEvent()) {
      hold(producer, gate);
      event.record(producer);
      event.block(consumer);
      gate.countDown();
      assertEquals(1, await(consumer.submit("after", () -> 1)));
      assertTrue(event.query());
    }
  }
}
