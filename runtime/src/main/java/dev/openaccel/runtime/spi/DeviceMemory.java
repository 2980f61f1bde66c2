package dev.openaccel.runtime.spi;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.MemoryStats;
import dev.openaccel.runtime.Stream;
import java.nio.ByteBuffer;

/**
 * Device memory a backend owns itself ({@code cl_mem}, {@code CUdeviceptr}), for an engine whose
 * executor has device queues: the engine checks and orders, this strategy allocates and builds the
 * device work. Without it ({@link EngineSpec.Builder#memoryPerDevice}), the engine simulates memory
 * in host buffers. All methods are thread-safe unless stated.
 */
public interface DeviceMemory {

  /**
   * Allocates {@code bytes} on {@code stream}'s device for use on {@code stream}.
   *
   * @throws IllegalArgumentException if {@code bytes <= 0}
   * @throws dev.openaccel.runtime.DeviceOutOfMemoryException if it does not fit
   */
  DeviceBuffer allocate(Stream stream, long bytes);

  /** The memory statistics of {@code device}. */
  MemoryStats stats(Device device);

  /**
   * The device work of a copy of {@code src}'s remaining bytes into {@code dst}; arguments are
   * checked here, at the call. The bytes are read when the work runs.
   */
  DeviceWork copyToDevice(ByteBuffer src, DeviceBuffer dst);

  /** The device work of a copy of {@code src} into {@code dst} from its position. */
  DeviceWork copyToHost(DeviceBuffer src, ByteBuffer dst);

  /** The device work of a copy between buffers of the same size, on the same or two devices. */
  DeviceWork copy(DeviceBuffer src, DeviceBuffer dst);

  /**
   * A host view of {@code buffer} for a Java kernel; called on the device thread once the stream's
   * earlier device work has ended, and paired with {@link #unmap} when the kernel returns.
   */
  ByteBuffer map(DeviceBuffer buffer);

  /** Ends a view from {@link #map}; what the kernel wrote becomes the buffer's content. */
  void unmap(DeviceBuffer buffer, ByteBuffer view);
}
