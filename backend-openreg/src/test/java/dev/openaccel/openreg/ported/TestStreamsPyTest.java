package dev.openaccel.openreg.ported;

import static dev.openaccel.openreg.testing.KernelLatches.D0;
import static dev.openaccel.openreg.testing.KernelLatches.D1;
import static dev.openaccel.openreg.testing.KernelLatches.OPENREG;
import static dev.openaccel.openreg.testing.KernelLatches.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.openreg.testing.KernelLatches;
import dev.openaccel.openreg.testing.SharedAcceleratorTest;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.StreamGuard;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Port of torch_openreg/tests/test_streams.py ({@code TestStream}), plus the value semantics of
 * {@link Stream} from the API contract: identity by (device, id), re-wrapping by id, the default
 * stream id 0 and the {@code toString} format.
 */
class TestStreamsPyTest extends SharedAcceleratorTest {
  // ---- test_stream_create ----

  @Test
  void streamOnDeviceWithoutIndexLandsOnCurrentDevice() {
    acc.setDeviceIndex(1);
    Stream stream = acc.newStream(Device.parse("openreg"));
    assertEquals(acc.currentDeviceIndex(), stream.deviceIndex());
    assertEquals(D1, stream.device());
  }

  @Test
  void streamOnExplicitDeviceReportsTypeAndIndex() {
    Stream stream = acc.newStream(Device.parse("openreg:1"));
    assertEquals(OPENREG, stream.deviceType());
    assertEquals(1, stream.deviceIndex());
    assertEquals(D1, stream.device());
  }

  @Test
  void streamRewrappedFromItsIdEqualsTheOriginal() {
    Stream stream = acc.newStream(D1);
    Stream again = acc.stream(stream.device(), stream.id());
    assertEquals(stream, again);
    assertEquals(stream.hashCode(), again.hashCode());
    assertEquals(stream.priority(), again.priority());
  }

  @Test
  void unknownStreamIdIsRejected() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> acc.stream(D0, 1_000_000L));
    assertTrue(e.getMessage().contains("1000000"), e.getMessage());
  }

  @Test
  void rewrapOnOutOfRangeDeviceIsRejected() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> acc.stream(Device.of(OPENREG, 2), 0));
    assertTrue(e.getMessage().contains("device index is out of range"), e.getMessage());
  }

  // ---- test_stream_context ----

  @Test
  void streamGuardMakesTheStreamCurrent() {
    Stream stream = acc.newStream(D1);
    try (StreamGuard guard = acc.streamGuard(stream)) {
      assertEquals(stream, acc.currentStream());
      assertEquals(stream, guard.currentStream());
    }
    assertEquals(acc.defaultStream(D0), acc.currentStream());
  }

  // ---- test_stream_switch ----

  @Test
  void setStreamSwitchesTheCurrentStreamAcrossDevices() {
    Stream first = acc.newStream(D0);
    acc.setStream(first);
    assertEquals(first, acc.currentStream());

    Stream second = acc.newStream(D1);
    acc.setStream(second);
    assertEquals(second, acc.currentStream());
    assertEquals(D1, acc.currentDevice());
    assertEquals(first, acc.currentStream(D0));
  }

  // ---- test_stream_synchronize ----

  @Test
  void queryIsTrueOnAFreshStreamAndAfterSynchronize() {
    Stream stream = acc.newStream(D1);
    assertTrue(stream.query());

    Event event = acc.newEvent();
    event.record(stream);
    stream.synchronize();
    assertTrue(stream.query());
    assertTrue(event.query());
  }

  // ---- test_stream_repr ----

  @Test
  void toStringNamesDeviceTypeIndexAndStreamId() {
    Stream stream = acc.newStream(D1);
    String text = stream.toString();
    assertTrue(
        text.contains("device_type=openreg, device_index=1, stream_id=" + stream.id()), text);
  }

  // ---- test_stream_wait_stream ----

  @Test
  void waitStreamAcrossDevicesOrdersLaterWorkAfterEarlierWork() throws Exception {
    Stream first = acc.newStream(D0);
    Stream second = acc.newStream(D1);
    CountDownLatch gate = new CountDownLatch(1);
    AtomicBoolean firstDone = new AtomicBoolean();
    first.launch(
        "gated",
        () -> {
          KernelLatches.await(gate);
          firstDone.set(true);
        });
    second.waitStream(first);
    CompletionStage<Boolean> sawFirst = second.submit("observe", firstDone::get);

    assertFalse(sawFirst.toCompletableFuture().isDone());
    gate.countDown();
    assertTrue(get(sawFirst));
  }

  // ---- test_stream_wait_event ----

  @Test
  void waitEventOnARecordedEventOrdersLaterWork() throws Exception {
    Stream first = acc.newStream(Device.parse("openreg"));
    Stream second = acc.newStream(Device.parse("openreg"));
    CountDownLatch gate = new CountDownLatch(1);
    AtomicBoolean firstDone = new AtomicBoolean();
    first.launch(
        "gated",
        () -> {
          KernelLatches.await(gate);
          firstDone.set(true);
        });
    Event event = first.recordEvent();
    second.waitEvent(event);
    CompletionStage<Boolean> sawFirst = second.submit("observe", firstDone::get);

    assertFalse(sawFirst.toCompletableFuture().isDone());
    gate.countDown();
    assertTrue(get(sawFirst));
  }

  // ---- value semantics ----

  @Test
  void defaultStreamHasIdZeroOnEveryDevice() {
    assertEquals(0, acc.defaultStream(D0).id());
    assertEquals(0, acc.defaultStream(D1).id());
    assertEquals(acc.defaultStream(D0), acc.currentStream(D0));
    assertEquals(acc.defaultStream(D1), acc.stream(D1, 0));
  }

  @Test
  void twoNewStreamsAreUnequal() {
    Stream a = acc.newStream(D0);
    Stream b = acc.newStream(D0);
    assertNotEquals(a, b);
    assertNotEquals(a.id(), b.id());
    assertNotEquals(0, a.id());
  }

  @Test
  void equalityDependsOnDeviceAndIdOnly() {
    Stream d0 = acc.defaultStream(D0);
    Stream d1 = acc.defaultStream(D1);
    assertEquals(d0.id(), d1.id());
    assertNotEquals(d0, d1);

    Stream stream = acc.newStream(D0);
    Set<Stream> set = Set.of(stream, d0, d1);
    assertTrue(set.contains(acc.stream(D0, stream.id())));
    assertFalse(stream.equals(null));
    assertFalse(stream.equals((Object) "openreg:0"));
  }

  @Test
  void recordEventReturnsAnEventRecordedOnThisStream() {
    Stream stream = acc.newStream(D1);
    Event event = stream.recordEvent();
    assertTrue(event.wasRecorded());
    assertEquals(D1, event.device().orElseThrow());
    assertTrue(event.synchronize(Duration.ofSeconds(KernelLatches.SECONDS)));
    assertTrue(event.query());
  }
}
