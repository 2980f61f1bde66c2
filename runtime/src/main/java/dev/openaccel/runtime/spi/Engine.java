package dev.openaccel.runtime.spi;

import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Stream;

/**
 * OpenAccel's actor engine for one backend, obtained with {@link BackendContext#engine}: device
 * actors, stream actors with ordered queues, events as latched generations, waits, failure
 * semantics and tracing. It is a complete {@link DeviceGuardImpl}; a backend returns it from its
 * provider, or wraps it to add operations of its own. How device work executes is the backend's
 * {@link DeviceExecutor}.
 *
 * <p>All methods are thread-safe.
 */
public interface Engine extends DeviceGuardImpl {

  /**
   * Enqueues backend device work on {@code stream}: it is handed to the stream's {@link
   * DeviceQueue} after all work enqueued before it on this stream. Work that will never reach the
   * queue (refused here, or queued when the stream stops) is {@link DeviceWork#discard}ed. While
   * the stream sanitizer runs, the buffers the work declares ({@link DeviceWork#reads}, {@link
   * DeviceWork#writes}) are checked here first, like a Java kernel's.
   *
   * @param name the name kernels, trace events and the sanitizer's reports give
   * @throws IllegalArgumentException if the stream is not one of this engine's, or the executor has
   *     no device queue, or a declared buffer is not one of this engine's
   * @throws dev.openaccel.runtime.UnsynchronizedAccessException if the sanitizer runs at {@code
   *     throw} and a declared buffer's access races; nothing was enqueued
   */
  void enqueue(Stream stream, String name, DeviceWork work);

  /**
   * The region of the backend's own {@link DeviceMemory} that {@code buffer} holds, for device work
   * built now (a kernel's argument); the backend's region must refuse work built after it was
   * released (see {@link DeviceMemory#release}).
   *
   * @param use what the buffer is for, in the error if it is closed
   * @throws IllegalArgumentException if the buffer is not one of this engine's, or the engine's
   *     memory is simulated
   * @throws IllegalStateException if the buffer is closed
   */
  DeviceMemory.Region region(DeviceBuffer buffer, String use);
}
