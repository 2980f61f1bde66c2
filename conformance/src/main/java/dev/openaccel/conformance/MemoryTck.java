package dev.openaccel.conformance;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.DeviceOutOfMemoryException;
import dev.openaccel.runtime.MemoryStats;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.Capability;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Conformance of {@link Capability#DEVICE_MEMORY}: declared, buffers hold bytes through copies and
 * kernels, statistics add up, an allocation above capacity is a {@link DeviceOutOfMemoryException},
 * memory of closed buffers serves later allocations of any stream (what a caching allocator holds
 * goes back before an allocation gives up), and {@code recordStream} keeps a closed buffer's memory
 * from a new owner until the recorded stream's work is done; undeclared, allocating is reported as
 * unsupported.
 */
public abstract class MemoryTck extends BackendTck {

  @Test
  void memoryIsUnsupportedWhenUndeclared() {
    assumeUndeclared(Capability.DEVICE_MEMORY);
    assertUnsupported(() -> accelerator().allocate(device(0), 64));
    assertUnsupported(() -> accelerator().memoryStats(device(0)));
  }

  @Test
  void bytesSurviveARoundTripThroughAKernel() {
    assumeDeclared(Capability.DEVICE_MEMORY);
    Stream stream = newStream(0);
    byte[] data = new byte[1000];
    for (int i = 0; i < data.length; i++) {
      data[i] = (byte) i;
    }
    try (DeviceBuffer buffer = accelerator().allocate(device(0), data.length)) {
      ByteBuffer back = ByteBuffer.allocate(data.length);
      stream.copyToDevice(ByteBuffer.wrap(data), buffer);
      stream.launch(
          "increment",
          context -> {
            ByteBuffer view = context.buffer(0);
            for (int i = 0; i < view.limit(); i++) {
              view.put(i, (byte) (view.get(i) + 1));
            }
          },
          buffer);
      stream.copyToHost(buffer, back);
      stream.synchronize();
      for (int i = 0; i < data.length; i++) {
        data[i]++;
      }
      assertArrayEquals(data, back.array());
    }
  }

  @Test
  void statisticsCountLiveBuffersAndTheCapacityBoundsThem() {
    assumeDeclared(Capability.DEVICE_MEMORY);
    MemoryStats before = accelerator().memoryStats(device(0));
    try (DeviceBuffer buffer = accelerator().allocate(device(0), 4096)) {
      MemoryStats during = accelerator().memoryStats(device(0));
      assertTrue(during.allocated() >= before.allocated() + buffer.size());
      assertTrue(during.reserved() >= during.allocated());
      assertTrue(during.peakAllocated() >= during.allocated());
      assertEquals(before.capacity(), during.capacity());
    }
    assertEquals(before.allocated(), accelerator().memoryStats(device(0)).allocated());
    long tooMuch = before.capacity() + 1;
    assertThrowsWith(
        DeviceOutOfMemoryException.class,
        "out of memory",
        () -> accelerator().allocate(device(0), tooMuch));
    assertThrowsWith(
        IllegalArgumentException.class, "0", () -> accelerator().allocate(device(0), 0));
  }

  @Test
  void closedBuffersServeAnotherStreamsAllocationsBeforeTheyRunOutOfMemory() {
    assumeDeclared(Capability.DEVICE_MEMORY);
    long capacity = accelerator().memoryStats(device(0)).capacity();
    long part = capacity / 8; // devices may cap one allocation at a quarter of their memory
    closeAll(allocateParts(part, 6)); // three quarters, which a cache may keep for this stream
    try (var guard = accelerator().streamGuard(newStream(0))) {
      List<DeviceBuffer> again = allocateParts(part, 6); // fits only if that memory came back
      closeAll(again);
    }
    assertThrowsWith(
        DeviceOutOfMemoryException.class,
        "out of memory",
        () -> accelerator().allocate(device(0), capacity + 1));
    try (DeviceBuffer small = accelerator().allocate(device(0), 1024)) {
      assertEquals(1024, small.size(), "the device stays usable after running out");
    }
  }

  private List<DeviceBuffer> allocateParts(long size, int count) {
    List<DeviceBuffer> buffers = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      buffers.add(accelerator().allocate(device(0), size));
    }
    return buffers;
  }

  private static void closeAll(List<DeviceBuffer> buffers) {
    buffers.forEach(DeviceBuffer::close);
  }

  @Test
  void recordStreamKeepsAClosedBuffersMemoryUntilThatStreamsWorkIsDone() throws Exception {
    assumeDeclared(Capability.DEVICE_MEMORY);
    assertArrayEquals(
        RecordStreamScenario.filled((byte) 1),
        RecordStreamScenario.readerSees(accelerator(), device(0), true),
        "the reader saw bytes of the memory's next owner");
  }
}
