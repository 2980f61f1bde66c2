package dev.openaccel.openreg.ported;

import static dev.openaccel.openreg.testing.KernelLatches.D0;
import static dev.openaccel.openreg.testing.KernelLatches.D1;
import static dev.openaccel.openreg.testing.KernelLatches.OPENREG;
import static dev.openaccel.openreg.testing.KernelLatches.drain;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.openreg.testing.SharedAcceleratorTest;
import dev.openaccel.runtime.PriorityRange;
import dev.openaccel.runtime.Stream;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Port of OpenReg's own C++ stream tests
 * (torch_openreg/third_party/openreg/tests/stream_tests.cpp).
 *
 * <p>Deliberate differences: OpenReg exposes the single priority 0 and rejects priorities outside
 * it; OpenAccel's range is least 0 / greatest 1 and {@code newStream(d, p)} clamps into it. Null
 * handles are Java {@code null} arguments and fail with {@link NullPointerException}.
 */
class StreamTestsCppTest extends SharedAcceleratorTest {
  // StreamCreateAndDestroy
  @Test
  void newStreamIsANonDefaultStreamOfTheCurrentDevice() {
    Stream stream = acc.newStream();
    assertEquals(D0, stream.device());
    assertNotEquals(acc.defaultStream(D0), stream);
  }

  // StreamPriorityRange: OpenReg fixes [0, 0]; OpenAccel fixes least 0, greatest 1.
  @Test
  void priorityRangeIsLeastZeroGreatestOne() {
    assertEquals(new PriorityRange(0, 1), acc.priorityRange(OPENREG));
  }

  // StreamCreateWithPriorityValidBounds
  @Test
  void priorityAtEitherBoundIsKept() {
    PriorityRange range = acc.priorityRange(OPENREG);
    assertEquals(range.least(), acc.newStream(D0, range.least()).priority());
    assertEquals(range.greatest(), acc.newStream(D0, range.greatest()).priority());
  }

  // StreamCreateWithInvalidPriority: OpenReg returns an error; the API contract clamps.
  @Test
  void priorityOutsideTheRangeIsClamped() {
    assertEquals(1, acc.newStream(D1, 5).priority());
    assertEquals(0, acc.newStream(D1, -3).priority());
    assertEquals(1, acc.newStream(D1, Integer.MAX_VALUE).priority());
    assertEquals(0, acc.newStream(D1, Integer.MIN_VALUE).priority());
  }

  // StreamGetPriority
  @Test
  void newStreamWithoutPriorityHasPriorityZero() {
    assertEquals(0, acc.newStream().priority());
    assertEquals(0, acc.newStream(D1).priority());
    assertEquals(0, acc.defaultStream(D1).priority());
  }

  // StreamTaskExecution
  @Test
  void launchedKernelHasRunWhenStreamSynchronizeReturns() {
    Stream stream = acc.newStream();
    AtomicInteger counter = new AtomicInteger();
    stream.launch("increment", counter::incrementAndGet);
    stream.synchronize();
    assertEquals(1, counter.get());
  }

  // AddTaskToStreamNullptr
  @Test
  void launchWithoutKernelOrNameIsRejected() {
    Stream stream = acc.newStream();
    assertThrows(NullPointerException.class, () -> stream.launch("k", null));
    assertThrows(NullPointerException.class, () -> stream.launch(null, () -> {}));
    assertThrows(NullPointerException.class, () -> stream.submit("k", null));
    assertTrue(stream.query());
  }

  // StreamQuery
  @Test
  void queryIsTrueBeforeAnyWorkAndAfterSynchronize() {
    Stream stream = acc.newStream();
    assertTrue(stream.query());
    AtomicInteger counter = new AtomicInteger();
    stream.launch("increment", counter::incrementAndGet);
    stream.synchronize();
    assertTrue(stream.query());
    assertEquals(1, counter.get());
  }

  // DeviceSynchronize
  @Test
  void deviceSynchronizeWaitsForKernelsOfAllItsStreams() {
    Stream first = acc.newStream();
    Stream second = acc.newStream();
    AtomicInteger counter = new AtomicInteger();
    first.launch("first", counter::incrementAndGet);
    second.launch("second", counter::incrementAndGet);
    acc.synchronize();
    assertEquals(2, counter.get());
    assertTrue(first.query());
    assertTrue(second.query());
  }

  // DeviceSynchronizeWithNoStreams
  @Test
  void deviceSynchronizeOnAnIdleDeviceReturns() throws Exception {
    drain(acc.defaultStream(D1));
    acc.synchronize(D1);
    acc.setDeviceIndex(1);
    acc.synchronize();
    assertEquals(1, acc.currentDeviceIndex());
  }
}
