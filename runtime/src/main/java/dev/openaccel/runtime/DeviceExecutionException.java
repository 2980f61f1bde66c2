package dev.openaccel.runtime;

/**
 * Device work failed: a kernel threw, a stream waited on a failed event, or the runtime stopped
 * before the work could run. Reported at the next synchronization point that covers the failed
 * work; the message names the kernel and the stream, and the cause is the kernel's own exception.
 */
public class DeviceExecutionException extends AcceleratorException {
  private static final long serialVersionUID = 1L;

  /** An exception with {@code message} and no cause. */
  public DeviceExecutionException(String message) {
    super(message);
  }

  /**
   * An exception with {@code message} and {@code cause} (the failure it reports, such as a kernel's
   * own exception).
   */
  public DeviceExecutionException(String message, Throwable cause) {
    super(message, cause);
  }
}
