package dev.openaccel.opencl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.MemoryStats;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.tck.RecordStreamScenario;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * {@code cl_mem} regions go through the engine's stream-ordered caching allocator: a freed buffer's
 * region is reused by the next allocation on its stream, also while another stream still reads it
 * unless the buffer was recorded there. (That the cache goes back to the device before an
 * allocation gives up, and that {@code recordStream} holds the region back, is part of the
 * conformance suite.)
 */
@RequiresOpenCl
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CachingAllocatorTest {
  private static final long MIB = 1 << 20;

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
  void withoutRecordStreamTheRegionIsReusedWhileAnotherStreamStillReadsIt() throws Exception {
    assertArrayEquals(
        RecordStreamScenario.filled((byte) 2),
        RecordStreamScenario.readerSees(accelerator, device, false),
        "the new owner's bytes: a race");
  }

  private static byte[] filled(byte value, int size) {
    byte[] bytes = new byte[size];
    Arrays.fill(bytes, value);
    return bytes;
  }
}
