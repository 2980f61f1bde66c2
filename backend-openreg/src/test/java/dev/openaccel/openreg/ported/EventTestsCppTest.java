package dev.openaccel.openreg.ported;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.openaccel.openreg.OpenRegEvent;
import dev.openaccel.openreg.testing.Kernels;
import dev.openaccel.openreg.testing.SharedAcceleratorTest;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.Stream;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Port of PyTorch's native OpenReg event tests, {@code
 * torch_openreg/third_party/openreg/tests/event_tests.cpp} ({@code EventTest}), to OpenAccel.
 *
 * <p>The C API's {@code orErrorUnknown} for every misuse becomes a precise JDK exception (OpenReg's
 * single catch-all error code is deliberately not copied): null handles are {@link
 * NullPointerException}s, a destroyed event is an {@link IllegalStateException}. The C API binds an
 * event to the current device at creation; here it binds at the first record, so the
 * different-devices case records first and then tries the other device.
 */
class EventTestsCppTest extends SharedAcceleratorTest {
  private static final Device D0 = Device.parse("openreg:0");
  private static final Device D1 = Device.parse("openreg:1");

  @Override
  protected Config config() {
    return ConfigFactory.parseString("openaccel.system-name = event-native");
  }

  /** The C++ fixture's {@code SetUp}: every test starts on device 0. */
  @BeforeEach
  void onDeviceZero() {
    acc.setDeviceIndex(0);
  }

  /** EventCreateAndDestroy */
  @Test
  void eventIsCreatedByItsFirstRecordAndReleasedByClose() {
    Event event = acc.newEvent();
    assertFalse(event.isCreated());
    event.record(acc.newStream(D0));
    assertTrue(event.isCreated());
    event.close();
    assertFalse(event.isCreated());
  }

  /** EventCreateWithFlagsTiming */
  @Test
  void timingEventIsCreatedWithTimingOption() {
    Event event = acc.newEvent(EventOptions.timing());
    assertTrue(event.options().enableTiming());
    event.record(acc.newStream(D0));
    assertTrue(event.isCreated());
    assertDoesNotThrow(event::close);
  }

  /** EventCreationNullptr: creation rejects a missing argument at once. */
  @Test
  void creationWithoutOptionsIsRejected() {
    assertThrows(NullPointerException.class, () -> acc.newEvent(null));
    assertThrows(NullPointerException.class, () -> new OpenRegEvent(acc, null));
  }

  /** EventRecordAndSynchronize */
  @Test
  void recordedEventSynchronizesAndThenQueriesComplete() {
    Stream stream = acc.newStream();
    Event event = acc.newEvent();
    event.record(stream);
    event.synchronize();
    assertTrue(event.query());
    event.close();
  }

  /** EventRecordInvalidArgs: record and block reject a null stream; a closed event is unusable. */
  @Test
  void recordAndSynchronizeValidateTheirArguments() {
    Stream stream = acc.newStream();
    Event event = acc.newEvent();
    assertThrows(NullPointerException.class, () -> event.record(null));
    assertThrows(NullPointerException.class, () -> stream.recordEvent(null));
    assertFalse(event.wasRecorded(), "a rejected record must not record");
    event.close();
    assertThrows(IllegalStateException.class, event::synchronize);
    assertThrows(IllegalStateException.class, () -> event.record(stream));
    assertDoesNotThrow(event::close);
  }

  /** EventElapsedTime: a busy kernel stands in for the C++ test's host sleep between records. */
  @Test
  void elapsedTimeCoversTheWorkBetweenTheRecords() {
    Stream stream = acc.newStream();
    Event start = acc.newEvent(EventOptions.timing());
    Event end = acc.newEvent(EventOptions.timing());
    start.record(stream);
    stream.launch("busy", Kernels.busy(Duration.ofMillis(10)));
    end.record(stream);
    start.synchronize();
    end.synchronize();
    double ms = start.elapsedTime(end);
    assertTrue(ms >= 10.0, "elapsed " + ms + " ms around a 10 ms kernel");
  }

  /** EventElapsedTimeDifferentDevicesFails */
  @Test
  void eventsOfDifferentDevicesCannotBeCrossRecordedOrTimed() {
    Stream stream0 = acc.newStream(D0);
    Stream stream1 = acc.newStream(D1);
    Event event0 = acc.newEvent(EventOptions.timing());
    Event event1 = acc.newEvent(EventOptions.timing());
    event0.record(stream0);
    event1.record(stream1);

    IllegalArgumentException wrong0 =
        assertThrows(IllegalArgumentException.class, () -> event0.record(stream1));
    assertTrue(wrong0.getMessage().contains("does not match recording stream's device"));
    IllegalArgumentException wrong1 =
        assertThrows(IllegalArgumentException.class, () -> event1.record(stream0));
    assertTrue(wrong1.getMessage().contains("does not match recording stream's device"));

    event0.synchronize();
    event1.synchronize();
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> event0.elapsedTime(event1));
    assertTrue(e.getMessage().contains("must be recorded on the same device"), e.getMessage());
  }

  /** EventElapsedTimeRequiresTimingFlag */
  @Test
  void elapsedTimeRequiresTimingEvents() {
    Stream stream = acc.newStream();
    Event start = acc.newEvent();
    Event end = acc.newEvent();
    start.record(stream);
    end.record(stream);
    start.synchronize();
    end.synchronize();
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> start.elapsedTime(end));
    assertTrue(e.getMessage().contains("must be created with enable_timing"), e.getMessage());
  }

  /** StreamWaitEvent: a stream waiting on its own latest record does not deadlock. */
  @Test
  void streamWaitingOnItsOwnRecordKeepsRunning() throws Exception {
    Stream stream = acc.newStream();
    Event event = acc.newEvent();
    event.record(stream);
    stream.waitEvent(event);
    assertEquals(
        "after",
        stream.submit("after", () -> "after").toCompletableFuture().get(10, TimeUnit.SECONDS));
    assertTrue(event.synchronize(Duration.ofSeconds(10)));
    event.close();
  }

  /** StreamWaitEventInvalidArgs */
  @Test
  void waitRejectsANullStreamOrEvent() {
    Stream stream = acc.newStream();
    Event event = acc.newEvent();
    assertThrows(NullPointerException.class, () -> event.block(null));
    assertThrows(NullPointerException.class, () -> stream.waitEvent(null));
  }
}
