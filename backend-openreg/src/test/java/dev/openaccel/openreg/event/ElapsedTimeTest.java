package dev.openaccel.openreg.event;

import static dev.openaccel.conformance.BackendTck.assertThrowsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.openaccel.openreg.OpenRegEvent;
import dev.openaccel.openreg.testing.Gate;
import dev.openaccel.openreg.testing.Kernels;
import dev.openaccel.openreg.testing.OtherTypeBackend;
import dev.openaccel.openreg.testing.SharedAcceleratorTest;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.Stream;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link Event#elapsedTime}: its value, and its five checks in the order {@code EventChecks}
 * applies them. Each order test builds events that fail an earlier check and every later one, and
 * expects the earlier error.
 */
class ElapsedTimeTest extends SharedAcceleratorTest {
  private static final Device D0 = Device.parse("openreg:0");
  private static final Device D1 = Device.parse("openreg:1");
  private static final Duration BUSY = Duration.ofMillis(2);
  private static final double BUSY_MS = 2.0;

  private static final String TYPE = "does not match other's device type";
  private static final String TIMING = "must be created with enable_timing";
  private static final String RECORDED = "must be recorded before calculating elapsed time";
  private static final String COMPLETED = "must be completed before calculating elapsed time";
  private static final String SAME_DEVICE = "must be recorded on the same device";

  private OtherTypeBackend other;

  @Override
  protected Config config() {
    return ConfigFactory.parseString("openaccel.system-name = event-elapsed");
  }

  @BeforeAll
  void startOther() {
    other = new OtherTypeBackend(acc);
  }

  private Event timing() {
    return acc.newEvent(EventOptions.timing());
  }

  /** A timing event recorded on a fresh stream of {@code device} and completed. */
  private Event completedOn(Device device) {
    Event event = timing();
    event.record(acc.newStream(device));
    event.synchronize();
    return event;
  }

  // ---- the order of the checks ----

  @Test
  void differentDeviceTypesAreReportedFirst() throws Exception {
    Event foreignUntimed = other.newEvent(EventOptions.defaults());
    assertThrowsWith(
        IllegalArgumentException.class, TYPE, () -> timing().elapsedTime(foreignUntimed));
    assertThrowsWith(
        IllegalArgumentException.class, TYPE, () -> foreignUntimed.elapsedTime(acc.newEvent()));

    Event foreignTiming = other.newEvent(EventOptions.timing());
    foreignTiming.record(other.newStream());
    try (Gate gate = new Gate()) {
      Stream stream = acc.newStream(D0);
      stream.launch("gate", gate::hold);
      Event pending = timing();
      pending.record(stream);
      assertThrowsWith(
          IllegalArgumentException.class, TYPE, () -> pending.elapsedTime(foreignTiming));
    }
  }

  @Test
  void missingTimingIsReportedBeforeMissingRecords() {
    assertThrowsWith(
        IllegalArgumentException.class, TIMING, () -> acc.newEvent().elapsedTime(acc.newEvent()));
    assertThrowsWith(
        IllegalArgumentException.class, TIMING, () -> acc.newEvent().elapsedTime(timing()));
    assertThrowsWith(
        IllegalArgumentException.class, TIMING, () -> timing().elapsedTime(acc.newEvent()));
  }

  @Test
  void missingTimingIsReportedBeforeIncompleteWorkAndDifferentDevices() throws Exception {
    try (Gate gate = new Gate()) {
      Stream stream = acc.newStream(D0);
      stream.launch("gate", gate::hold);
      Event untimedPending = acc.newEvent();
      untimedPending.record(stream);
      Event timedOnD1 = completedOn(D1);
      assertThrowsWith(
          IllegalArgumentException.class, TIMING, () -> untimedPending.elapsedTime(timedOnD1));
      assertThrowsWith(
          IllegalArgumentException.class, TIMING, () -> timedOnD1.elapsedTime(untimedPending));
    }
  }

  @Test
  void missingRecordIsReportedBeforeIncompleteWork() throws Exception {
    try (Gate gate = new Gate()) {
      Stream stream = acc.newStream(D0);
      stream.launch("gate", gate::hold);
      Event pending = timing();
      pending.record(stream);
      assertThrowsWith(IllegalStateException.class, RECORDED, () -> pending.elapsedTime(timing()));
      assertThrowsWith(IllegalStateException.class, RECORDED, () -> timing().elapsedTime(pending));
    }
  }

  @Test
  void incompleteWorkIsReportedBeforeDifferentDevices() throws Exception {
    try (Gate gate = new Gate()) {
      Stream stream = acc.newStream(D0);
      stream.launch("gate", gate::hold);
      Event pendingOnD0 = timing();
      pendingOnD0.record(stream);
      Event doneOnD1 = completedOn(D1);
      assertThrowsWith(
          IllegalStateException.class, COMPLETED, () -> pendingOnD0.elapsedTime(doneOnD1));
      assertThrowsWith(
          IllegalStateException.class, COMPLETED, () -> doneOnD1.elapsedTime(pendingOnD0));
    }
  }

  @Test
  void differentDevicesAreReportedLast() {
    Event onD0 = completedOn(D0);
    Event onD1 = completedOn(D1);
    assertThrowsWith(IllegalArgumentException.class, SAME_DEVICE, () -> onD0.elapsedTime(onD1));
    assertThrowsWith(IllegalArgumentException.class, SAME_DEVICE, () -> onD1.elapsedTime(onD0));
  }

  // ---- the value ----

  @Test
  void elapsedTimeAroundABusyKernelIsAtLeastItsDuration() {
    Stream stream = acc.newStream(D1);
    Event start = timing();
    Event end = timing();
    start.record(stream);
    stream.launch("busy", Kernels.busy(BUSY));
    end.record(stream);
    end.synchronize();
    double ms = start.elapsedTime(end);
    assertTrue(ms >= BUSY_MS, "elapsed " + ms + " ms around a " + BUSY_MS + " ms kernel");
  }

  @Test
  void elapsedIsTheSameIntervalAsADuration() {
    Stream stream = acc.newStream(D0);
    Event start = timing();
    Event end = timing();
    start.record(stream);
    stream.launch("busy", Kernels.busy(BUSY));
    end.record(stream);
    end.synchronize();
    double ms = start.elapsedTime(end);
    Duration elapsed = start.elapsed(end);
    assertTrue(elapsed.compareTo(BUSY) >= 0, "elapsed " + elapsed);
    assertTrue(
        Math.abs(elapsed.toNanos() - ms * 1_000_000.0) <= 1.0,
        "elapsed " + elapsed + " vs elapsedTime " + ms + " ms");
  }

  @Test
  void swappingTheEventsNegatesTheValue() {
    Stream stream = acc.newStream(D0);
    Event start = timing();
    Event end = timing();
    start.record(stream);
    stream.launch("busy", Kernels.busy(BUSY));
    end.record(stream);
    end.synchronize();
    assertEquals(-start.elapsedTime(end), end.elapsedTime(start), 0.0);
    assertTrue(end.elapsed(start).isNegative());
  }

  @Test
  void elapsedTimeOfAnEventToItselfIsZero() {
    Event event = completedOn(D0);
    assertEquals(0.0, event.elapsedTime(event), 0.0);
    assertEquals(Duration.ZERO, event.elapsed(event));
  }

  @Test
  void openRegEventsAndGenericEventsAreTimedAgainstEachOther() {
    Stream stream = acc.newStream(D1);
    Event start = new OpenRegEvent(acc, EventOptions.timing());
    Event end = acc.newEvent(EventOptions.timing());
    assertEquals(start.deviceType(), end.deviceType());
    start.record(stream);
    stream.launch("busy", Kernels.busy(BUSY));
    stream.recordEvent(end);
    end.synchronize();
    assertTrue(start.elapsedTime(end) >= BUSY_MS, "elapsed " + start.elapsedTime(end));
    assertTrue(end.elapsedTime(start) <= -BUSY_MS, "elapsed " + end.elapsedTime(start));
  }

  @Test
  void eventsOfTwoStreamsOfOneDeviceAreTimedAgainstEachOther() {
    Stream first = acc.newStream(D0);
    Stream second = acc.newStream(D0);
    Event start = timing();
    Event end = timing();
    start.record(first);
    second.waitEvent(start);
    second.launch("busy", Kernels.busy(BUSY));
    end.record(second);
    end.synchronize();
    assertTrue(start.elapsedTime(end) >= BUSY_MS, "elapsed " + start.elapsedTime(end));
  }

  @Test
  void elapsedTimeUsesTheLatestRecordOfEachEvent() {
    Stream stream = acc.newStream(D0);
    Event start = timing();
    Event end = timing();
    start.record(stream);
    end.record(stream);
    stream.launch("busy", Kernels.busy(BUSY));
    start.record(stream);
    start.synchronize();
    assertTrue(
        start.elapsedTime(end) <= -BUSY_MS,
        "start was re-recorded after end and a busy kernel: " + start.elapsedTime(end));
  }
}
