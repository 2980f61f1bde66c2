package dev.openaccel.samples.cli;

/**
 * A mistake in how a sample was invoked (an unknown flag, a bad value, a size that does not fit):
 * reported as one line plus the usage, with exit code {@link Cli#USAGE}, never as a stack trace.
 */
public final class UsageException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** A mistake described by {@code message}, a single line naming the offending value. */
  public UsageException(String message) {
    super(message, null, false, false);
  }
}
