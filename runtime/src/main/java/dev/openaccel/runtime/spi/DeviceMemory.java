package dev.openaccel.runtime.spi;

import dev.openaccel.runtime.Device;
import java.nio.ByteBuffer;

/**
 * Device memory a backend owns itself ({@code cl_mem}, {@code CUdeviceptr}), for an engine whose
 * executor has device queues. The split follows PyTorch's caching allocator over {@code
 * cudaMalloc}: this strategy reserves and releases whole {@link Region}s and builds the device work
 * of copies; the engine's stream-ordered caching allocator decides when a region is reserved,
 * reused on a stream, held for {@code recordStream} and released, keeps the statistics, and checks
 * every argument before a method here is called. Without it ({@link
 * EngineSpec.Builder#memoryPerDevice}), the engine simulates memory in host buffers. All methods
 * are thread-safe.
 */
public interface DeviceMemory {

  /** A block of device memory reserved by {@link #reserve}. */
  interface Region {
    /** The device it is on. */
    Device device();

    /** Its size in bytes, at least what was asked for. */
    long size();
  }

  /** The bytes the engine may reserve on {@code device}. */
  long capacity(Device device);

  /**
   * Reserves {@code bytes} on {@code device}.
   *
   * @throws dev.openaccel.runtime.DeviceOutOfMemoryException if the device cannot hold it
   */
  Region reserve(Device device, long bytes);

  /**
   * Gives {@code region} back to the device. Device work built on it before this call may still be
   * on its way to a queue: the region's memory must stay valid for it (free it once no command can
   * name it); work built after this call must fail at the call. Once the engine's actor system has
   * terminated, the engine releases every region it reserved, those of buffers still open included
   * (their work can no longer run), and discards work never submitted ({@link DeviceWork#discard}).
   */
  void release(Region region);

  /** The device work of a copy of {@code src}'s remaining bytes to the start of {@code dst}. */
  DeviceWork copyToDevice(ByteBuffer src, Region dst);

  /** The device work of a copy of {@code dst.remaining()} bytes from the start of {@code src}. */
  DeviceWork copyToHost(Region src, ByteBuffer dst);

  /** The device work of a copy of {@code bytes} between the regions, on the same or two devices. */
  DeviceWork copy(Region src, Region dst, long bytes);

  /**
   * Keeps {@code region}'s memory valid for a Java kernel built on it, which will {@link #map} it
   * when it runs, even if the region is released ({@link #release}) before then (its buffer closed
   * and the allocator's cache emptied): as for device work, released memory is freed only once no
   * work built on it can still use it. Called at the launch, on the caller's thread; paired with
   * {@link #unhold} once the kernel has unmapped the region, or if it never runs.
   *
   * @throws IllegalStateException if the region was released already
   */
  default void hold(Region region) {}

  /** Ends a {@link #hold}: the region may be freed now if it was released meanwhile. */
  default void unhold(Region region) {}

  /**
   * A host view of the first {@code bytes} of {@code region} for a Java kernel that holds it
   * ({@link #hold}); called on the device thread once the stream's earlier device work has ended,
   * and paired with {@link #unmap} when the kernel returns.
   */
  ByteBuffer map(Region region, long bytes);

  /** Ends a view from {@link #map}; what the kernel wrote becomes the region's content. */
  void unmap(Region region, ByteBuffer view);
}
