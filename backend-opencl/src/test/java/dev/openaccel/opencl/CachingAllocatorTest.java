package dev.openaccel.opencl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.DeviceOutOfMemoryException;
import dev.openaccel.runtime.MemoryStats;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.tck.Gates;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * {@code cl_mem} regions go through the engine's stream-ordered caching allocator: a freed buffer's
 * region is reused by the next allocation on its stream, held back for the streams it was recorded
 * on, and released to the device before an allocation gives up.
 */
@RequiresOpenCl
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CachingAllocatorTest {
  private static final long MIB = 1 << 20;
  private static final int SIZE = 4096;

  private Accelerator accelerator;
  private Device device;

  @BeforeAll
  void start() {
    accelerator = OpenClTestSupport.start("openaccel.opencl.memory-per-device = 16MiB");
    device = Device.of(OpenClProvider.TYPE, 0);
  }

  @AfterAll
  void close() {
    accelerator.close();
  }

  @Test
  void aFreedRegionStaysReservedAndIsReusedOnItsStream() {
    Stream stream = accelerator.newStream(device);
    try (var guard = accelerator.streamGuard(stream)) {
      MemoryStats before = accelerator.memoryStats(device);
      assertEquals(16 * MIB, before.capacity());
      DeviceBuffer first = accelerator.allocate(device, 1000); // rounded up to 1024
      MemoryStats during = accelerator.memoryStats(device);
      assertEquals(before.allocated() + 1024, during.allocated());
      assertEquals(before.reserved() + 1024, during.reserved());
      first.close();
      MemoryStats freed = accelerator.memoryStats(device);
      assertEquals(before.allocated(), freed.allocated());
      assertEquals(during.reserved(), freed.reserved(), "the freed region stays cached");
      try (DeviceBuffer second = accelerator.allocate(device, 1024)) {
        assertEquals(during.reserved(), accelerator.memoryStats(device).reserved(), "reused");
        stream.copyToDevice(ByteBuffer.wrap(filled((byte) 7, 1024)), second);
        ByteBuffer back = ByteBuffer.allocate(1024);
        stream.copyToHost(second, back);
        OpenClTestSupport.synchronize(stream);
        assertArrayEquals(filled((byte) 7, 1024), back.array());
      }
    }
  }

  @Test
  void theCacheGoesBackToTheDeviceBeforeAnAllocationGivesUp() {
    Stream other = accelerator.newStream(device);
    DeviceBuffer big = accelerator.allocate(device, 12 * MIB);
    big.close(); // cached for the current stream
    try (var guard = accelerator.streamGuard(other)) {
      try (DeviceBuffer again = accelerator.allocate(device, 12 * MIB)) {
        assertEquals(12 * MIB, again.size());
      }
    }
    DeviceOutOfMemoryException e =
        assertThrows(
            DeviceOutOfMemoryException.class, () -> accelerator.allocate(device, 17 * MIB));
    assertTrue(e.getMessage().contains(Long.toString(16 * MIB)), e.getMessage());
    try (DeviceBuffer small = accelerator.allocate(device, 1024)) {
      assertEquals(1024, small.size());
    }
  }

  @Test
  void withoutRecordStreamTheRegionIsReusedWhileAnotherStreamStillReadsIt() throws Exception {
    assertArrayEquals(filled((byte) 2, SIZE), readerSees(false), "the new owner's bytes: a race");
  }

  @Test
  void withRecordStreamTheReaderSeesTheOriginalBytes() throws Exception {
    assertArrayEquals(filled((byte) 1, SIZE), readerSees(true));
  }

  /**
   * Fills a buffer of the owner stream with ones, lets a gated reader on another stream copy it
   * out, frees it, and writes twos into a fresh allocation of the same size on the owner before
   * opening the gate. Returns what the reader saw.
   */
  private byte[] readerSees(boolean recordStream) {
    Stream owner = accelerator.newStream(device);
    Stream reader = accelerator.newStream(device);
    CountDownLatch gate = new CountDownLatch(1);
    ByteBuffer seen = ByteBuffer.allocate(SIZE);
    try (var guard = accelerator.streamGuard(owner)) {
      DeviceBuffer first = accelerator.allocate(device, SIZE);
      owner.copyToDevice(ByteBuffer.wrap(filled((byte) 1, SIZE)), first);
      reader.waitStream(owner);
      reader.launch("gate", () -> Gates.await(gate));
      reader.copyToHost(first, seen);
      if (recordStream) {
        first.recordStream(reader);
      }
      first.close();
      try (DeviceBuffer second = accelerator.allocate(device, SIZE)) {
        owner.copyToDevice(ByteBuffer.wrap(filled((byte) 2, SIZE)), second);
        OpenClTestSupport.synchronize(owner); // the twos are written while the reader is gated
        gate.countDown();
        OpenClTestSupport.synchronize(reader);
      }
    } finally {
      gate.countDown();
    }
    return seen.array();
  }

  private static byte[] filled(byte value, int size) {
    byte[] bytes = new byte[size];
    Arrays.fill(bytes, value);
    return bytes;
  }
}
