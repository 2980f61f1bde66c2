package dev.openaccel.opencl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.openaccel.conformance.RecordStreamScenario;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.MemoryStats;
import dev.openaccel.runtime.Stream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * {@code cl_mem} regions go through the engine's stream-ordered caching allocator: a freed buffer's
 * region is reused by the next allocation on its stream, also while another stream still reads it
 * unless the buffer was recorded there; {@code emptyCache} frees the cached regions' {@code
 * cl_mem}s. (That the cache goes back to the device before an allocation gives up, that {@code
 * recordStream} holds the region back, and what {@code emptyCache} does to the statistics, is part
 * of the conformance suite.)
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
  void emptyCacheFreesTheCachedClMemsAndKeepsThoseOfOpenBuffers() {
    ClDeviceMemory memory = OpenClSystem.of(accelerator.system()).backend().memory();
    accelerator.emptyCache(device);
    long live = memory.liveBuffers();
    try (DeviceBuffer open = accelerator.allocate(device, 1024)) {
      accelerator.allocate(device, 4096).close();
      accelerator.allocate(device, 65536).close();
      assertEquals(live + 3, memory.liveBuffers(), "the open and two cached cl_mems");
      accelerator.emptyCache(device);
      assertEquals(live + 1, memory.liveBuffers(), "clReleaseMemObject of the cached two");
      try (DeviceBuffer again = accelerator.allocate(device, 4096)) {
        assertEquals(live + 2, memory.liveBuffers(), "a new cl_mem");
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

  @Test
  void aJavaKernelLaunchedBeforeItsBufferIsClosedRunsThoughTheCacheWentBackToTheDevice()
      throws Exception {
    try (Accelerator small = OpenClTestSupport.start("openaccel.opencl.memory-per-device = 1MiB")) {
      Stream stream = small.newStream(device);
      Stream other = small.newStream(device);
      CountDownLatch gate = new CountDownLatch(1);
      AtomicInteger seen = new AtomicInteger();
      stream.launch(
          "gate",
          () -> {
            try {
              gate.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          });
      DeviceBuffer buffer;
      try (var guard = small.streamGuard(stream)) {
        buffer = small.allocate(device, 4096);
      }
      stream.launch(
          "touch",
          ctx -> {
            ctx.buffer(0).putInt(0, 42);
            seen.set(ctx.buffer(0).getInt(0));
          },
          buffer);
      buffer.close(); // a stream-ordered free: the region is cached for the stream at once
      try (var guard = small.streamGuard(other)) {
        // Does not fit beside the cached region: the cache goes back to the device first.
        small.allocate(device, MIB).close();
      }
      gate.countDown();
      OpenClTestSupport.synchronize(stream); // the kernel failed on a released cl_mem before
      assertEquals(42, seen.get());
    }
  }

  private static byte[] filled(byte value, int size) {
    byte[] bytes = new byte[size];
    Arrays.fill(bytes, value);
    return bytes;
  }
}
