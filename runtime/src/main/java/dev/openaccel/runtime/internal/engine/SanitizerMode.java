package dev.openaccel.runtime.internal.engine;

/**
 * What the stream sanitizer does ({@code openaccel.sanitizer}): nothing, throw at the racing call,
 * or log the race at WARN and enqueue the work anyway. Internal.
 */
public enum SanitizerMode {
  /** No sanitizer: no state, no work per enqueue beyond one null check. */
  OFF("off"),
  /** A race throws {@code UnsynchronizedAccessException} before anything is enqueued. */
  THROW("throw"),
  /** A race is logged at WARN and the work is enqueued. */
  LOG("log");

  private final String value;

  SanitizerMode(String value) {
    this.value = value;
  }

  /** The configuration value that selects this mode. */
  @Override
  public String toString() {
    return value;
  }
}
