package dev.openaccel.conformance;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.DeviceOutOfMemoryException;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.MemoryStats;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.Capability;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Conformance of the memory controls of {@link Capability#DEVICE_MEMORY}, as {@code
 * torch.accelerator}'s: {@code resetPeakMemoryStats} resets the peak alone, the counts of {@code
 * MemoryStats} follow allocations, frees, out-of-memory failures and the blocks reserved from and
 * given back to the device, {@code emptyCache} lowers {@code reserved} to what open buffers hold
 * but keeps the memory of a buffer recorded on another stream until that stream's work is done; bad
 * devices are rejected with clear errors; undeclared, the controls are reported as unsupported.
 * Sizes are multiples of the allocators' 512-byte blocks, so {@code allocated} counts them exactly.
 */
public abstract class MemoryControlTck extends BackendTck {

  @Test
  void memoryControlsAreUnsupportedWhenUndeclared() {
    assumeUndeclared(Capability.DEVICE_MEMORY);
    assertUnsupported(() -> accelerator().resetPeakMemoryStats(device(0)));
    assertUnsupported(() -> accelerator().emptyCache(device(0)));
  }

  @Test
  void resetPeakMemoryStatsMakesThePeakTheAllocatedBytesAndResetsNothingElse() {
    assumeDeclared(Capability.DEVICE_MEMORY);
    accelerator().emptyCache(device(0)); // no cached block serves these allocations
    accelerator().resetPeakMemoryStats(device(0)); // forgets the earlier tests' peaks
    try (DeviceBuffer kept = accelerator().allocate(device(0), 4096)) {
      accelerator().allocate(device(0), 65536).close();
      MemoryStats before = stats();
      assertEquals(before.allocated() + 65536, before.peakAllocated(), "the peak saw both");
      accelerator().resetPeakMemoryStats(device(0));
      MemoryStats after = stats();
      assertEquals(before.allocated(), after.peakAllocated());
      assertEquals(
          withPeak(before, after.peakAllocated()), after, "only the peak changed: " + after);
      try (DeviceBuffer more = accelerator().allocate(device(0), 8192)) {
        assertEquals(after.allocated() + 8192, stats().peakAllocated(), "the peak grows again");
      }
    }
  }

  @Test
  void countsFollowAllocationsFreesOutOfMemoryFailuresAndDeviceBlocks() {
    assumeDeclared(Capability.DEVICE_MEMORY);
    accelerator().emptyCache(device(0));
    MemoryStats start = stats();
    DeviceBuffer first = accelerator().allocate(device(0), 4096); // reserved from the device
    first.close(); // cached for this stream
    DeviceBuffer second = accelerator().allocate(device(0), 4096); // served by the cache
    long tooMuch = start.capacity() + 1;
    assertThrowsWith(
        DeviceOutOfMemoryException.class,
        "out of memory",
        () -> accelerator().allocate(device(0), tooMuch));
    assertThrowsWith(
        IllegalArgumentException.class, "0", () -> accelerator().allocate(device(0), 0));
    MemoryStats during = stats();
    assertEquals(start.allocations() + 2, during.allocations(), "allocations");
    assertEquals(start.frees() + 1, during.frees(), "frees");
    assertEquals(start.outOfMemoryFailures() + 1, during.outOfMemoryFailures(), "failures");
    assertEquals(start.deviceAllocations() + 1, during.deviceAllocations(), "one cache miss");
    assertEquals(start.deviceReleases(), during.deviceReleases(), "nothing given back yet");
    second.close();
    accelerator().emptyCache(device(0));
    MemoryStats end = stats();
    assertEquals(start.frees() + 2, end.frees());
    assertEquals(start.deviceReleases() + 1, end.deviceReleases(), "the one block went back");
    assertEquals(start.allocations() + 2, end.allocations(), "emptyCache allocates nothing");
  }

  @Test
  void emptyCacheLowersReservedToWhatOpenBuffersHoldAndLaterAllocationsWork() throws Exception {
    assumeDeclared(Capability.DEVICE_MEMORY);
    accelerator().emptyCache(device(0)); // no cached block serves these allocations
    Stream other = newStream(0);
    try (DeviceBuffer open = accelerator().allocate(device(0), 4096)) {
      accelerator().allocate(device(0), 8192).close(); // cached for the default stream
      try (var guard = accelerator().streamGuard(other)) {
        accelerator().allocate(device(0), 16384).close(); // cached for the other stream
      }
      MemoryStats cached = stats();
      assertEquals(cached.allocated() + 8192 + 16384, cached.reserved(), "both blocks cached");
      accelerator().emptyCache(device(0));
      MemoryStats emptied = stats();
      assertEquals(emptied.allocated(), emptied.reserved(), "only the open buffer is reserved");
      assertEquals(cached.allocated(), emptied.allocated(), "the open buffer kept its memory");
      assertEquals(cached.deviceReleases() + 2, emptied.deviceReleases());
      accelerator().emptyCache(device(0)); // nothing cached: nothing to do
      assertEquals(emptied, stats());
      try (DeviceBuffer later = accelerator().allocate(device(0), 8192)) {
        assertEquals(emptied.reserved() + 8192, stats().reserved(), "reserved afresh");
        assertEquals(emptied.deviceAllocations() + 1, stats().deviceAllocations());
        assertRoundTrip(accelerator().currentStream(device(0)), later, (byte) 5);
        assertRoundTrip(accelerator().currentStream(device(0)), open, (byte) 6);
      }
    }
  }

  @Test
  void emptyCacheKeepsARecordedBuffersMemoryUntilTheOtherStreamsWorkCompletes() throws Exception {
    assumeDeclared(Capability.DEVICE_MEMORY);
    accelerator().emptyCache(device(0));
    Stream owner = newStream(0);
    Stream reader = newStream(0);
    CountDownLatch gate = gate();
    int size = RecordStreamScenario.SIZE;
    ByteBuffer seen = ByteBuffer.allocate(size);
    MemoryStats start = stats();
    try (var guard = accelerator().streamGuard(owner)) {
      DeviceBuffer first = accelerator().allocate(device(0), size);
      owner.copyToDevice(ByteBuffer.wrap(RecordStreamScenario.filled((byte) 1)), first);
      reader.waitStream(owner);
      hold(reader, gate);
      reader.copyToHost(first, seen);
      first.recordStream(reader);
      first.close();
      accelerator().emptyCache(device(0));
      MemoryStats waiting = stats();
      assertEquals(start.reserved() + size, waiting.reserved(), "kept while the reader may read");
      assertEquals(start.deviceReleases(), waiting.deviceReleases(), "not released early");
      try (DeviceBuffer second = accelerator().allocate(device(0), size)) {
        owner.copyToDevice(ByteBuffer.wrap(RecordStreamScenario.filled((byte) 2)), second);
        await(owner.synchronizeAsync()); // the twos are written while the reader is still gated
        assertEquals(start.reserved() + 2L * size, stats().reserved(), "a block of its own");
        gate.countDown();
        await(reader.synchronizeAsync());
        assertArrayEquals(RecordStreamScenario.filled((byte) 1), seen.array(), "no new owner");
        MemoryStats done = stats();
        assertEquals(start.reserved() + size, done.reserved(), "went back once the read was done");
        assertEquals(start.deviceReleases() + 1, done.deviceReleases());
      }
    }
  }

  @Test
  void memoryControlsRejectBadDevicesNamingThem() {
    assumeDeclared(Capability.DEVICE_MEMORY);
    Device past = device(deviceCount());
    Device unknown = Device.of(DeviceType.of("nosuchbackend"), 0);
    for (Consumer<Device> control : controls()) {
      assertThrowsWith(NullPointerException.class, "device", () -> control.accept(null));
      assertThrowsWith(
          IllegalArgumentException.class,
          "device index is out of range: " + past,
          () -> control.accept(past));
      assertThrowsWith(
          IllegalArgumentException.class,
          "no backend for device type",
          () -> control.accept(unknown));
    }
  }

  private List<Consumer<Device>> controls() {
    return List.of(
        accelerator()::memoryStats,
        accelerator()::resetPeakMemoryStats,
        accelerator()::emptyCache,
        device -> accelerator().allocate(device, 64));
  }

  private MemoryStats stats() {
    return accelerator().memoryStats(device(0));
  }

  private static MemoryStats withPeak(MemoryStats s, long peak) {
    return new MemoryStats(
        s.allocated(),
        s.reserved(),
        peak,
        s.capacity(),
        s.allocations(),
        s.frees(),
        s.outOfMemoryFailures(),
        s.deviceAllocations(),
        s.deviceReleases());
  }

  /** Copies {@code value}s into {@code buffer} and back on {@code stream}, and checks them. */
  private static void assertRoundTrip(Stream stream, DeviceBuffer buffer, byte value)
      throws Exception {
    byte[] bytes = new byte[(int) buffer.size()];
    Arrays.fill(bytes, value);
    ByteBuffer back = ByteBuffer.allocate(bytes.length);
    stream.copyToDevice(ByteBuffer.wrap(bytes), buffer);
    stream.copyToHost(buffer, back);
    await(stream.synchronizeAsync());
    assertArrayEquals(bytes, back.array());
  }
}
