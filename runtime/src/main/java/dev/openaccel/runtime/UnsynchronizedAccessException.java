package dev.openaccel.runtime;

/**
 * The stream sanitizer ({@code openaccel.sanitizer = throw}) found work that is not ordered after a
 * conflicting use of the same buffer by another stream: two accesses, at least one a write, with no
 * event wait, stream wait or host synchronize between them; or a buffer closed while another
 * stream's work on it may still be pending and was not declared with {@code recordStream}.
 *
 * <p>Thrown by the enqueuing call (a copy, a kernel over buffers, a backend's device kernel launch,
 * {@code DeviceBuffer.close()}) before anything is enqueued or released, so the stream and the
 * buffer stay usable. The message names both accesses (stream, position in that stream, kernel or
 * copy name), the buffer (id, device, size) and the synchronization that is missing.
 */
public class UnsynchronizedAccessException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  /** An exception with the sanitizer's report as {@code message}. */
  public UnsynchronizedAccessException(String message) {
    super(message);
  }
}
