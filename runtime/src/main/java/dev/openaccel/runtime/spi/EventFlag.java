package dev.openaccel.runtime.spi;

/**
 * How a backend creates an event on first record, as c10's {@code EventFlag}: {@link
 * #PYTORCH_DEFAULT} is the cheap form without timing, {@link #BACKEND_DEFAULT} the backend's full
 * form with timing.
 */
public enum EventFlag {
  /** The cheap event, without timestamps: what an event without timing records with. */
  PYTORCH_DEFAULT,
  /** The full event, with timestamps; needs {@link Capability#TIMING}. */
  BACKEND_DEFAULT,
  /**
   * No valid flag: {@link EventChecks#checkFlag} rejects it with {@link IllegalArgumentException}.
   */
  INVALID
}
