package dev.openaccel.runtime;

/**
 * A block of device memory. Host code cannot read or write its bytes except through stream copies
 * ({@link Stream#copyToDevice}, {@link Stream#copyToHost}, {@link Stream#copy}) and kernels ({@link
 * Stream#launch(String, Kernel, DeviceBuffer...)}), which all run in stream order.
 *
 * <p>A buffer belongs to the stream that was current on its device when it was allocated. Its
 * memory goes back to a stream-ordered cache when closed: reused at once by later allocations on
 * that stream (stream order makes that safe), and by other streams only after the work of every
 * stream passed to {@link #recordStream} has completed. This interface is thread-safe.
 */
public interface DeviceBuffer extends AutoCloseable {

  /** The device whose memory this buffer is. */
  Device device();

  /** The size in bytes. */
  long size();

  /**
   * Marks this buffer as also used on {@code stream}: its memory is not reused before the work
   * enqueued there up to {@link #close()} has completed.
   *
   * @throws IllegalStateException if the buffer is closed
   */
  void recordStream(Stream stream);

  /** Frees the buffer; reuse of its memory waits for all work that used it. Idempotent. */
  @Override
  void close();
}
