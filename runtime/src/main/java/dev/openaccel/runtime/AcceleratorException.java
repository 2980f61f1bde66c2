package dev.openaccel.runtime;

/**
 * The root of OpenAccel's own unchecked exceptions: failures of device work, as opposed to misuse,
 * which is reported with the JDK exception that fits ({@link IllegalArgumentException}, {@link
 * IllegalStateException}, {@link UnsupportedOperationException}).
 */
public class AcceleratorException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** An exception with {@code message} and no cause. */
  public AcceleratorException(String message) {
    super(message);
  }

  /** An exception with {@code message} and {@code cause}. */
  public AcceleratorException(String message, Throwable cause) {
    super(message, cause);
  }
}
