package dev.openaccel.runtime;

/**
 * How an event is created, as in {@code torch.Event(enable_timing, blocking, interprocess)}.
 *
 * @param enableTiming the event records a timestamp, so {@link Event#elapsedTime} works
 * @param blocking host waits park the thread instead of spinning first
 * @param interprocess the event can be shared through an {@link EventHandle}; excludes timing
 */
public record EventOptions(boolean enableTiming, boolean blocking, boolean interprocess) {
  // The options as bits, for events that keep them in one byte.
  static final int TIMING_BIT = 1;
  static final int BLOCKING_BIT = 2;
  static final int INTERPROCESS_BIT = 4;
  private static final EventOptions[] BY_BITS = new EventOptions[8];

  static {
    for (int bits = 0; bits < BY_BITS.length; bits++) {
      BY_BITS[bits] =
          new EventOptions(
              (bits & TIMING_BIT) != 0, (bits & BLOCKING_BIT) != 0, (bits & INTERPROCESS_BIT) != 0);
    }
  }

  private static final EventOptions DEFAULTS = BY_BITS[0];

  /** All options off. */
  public static EventOptions defaults() {
    return DEFAULTS;
  }

  /** Timing on, everything else off. */
  public static EventOptions timing() {
    return DEFAULTS.withTiming(true);
  }

  /**
   * These options as bits: {@link #TIMING_BIT}, {@link #BLOCKING_BIT}, {@link #INTERPROCESS_BIT}.
   */
  byte bits() {
    return (byte)
        ((enableTiming ? TIMING_BIT : 0)
            | (blocking ? BLOCKING_BIT : 0)
            | (interprocess ? INTERPROCESS_BIT : 0));
  }

  /** The options of {@code bits} (see {@link #bits()}). */
  static EventOptions ofBits(int bits) {
    return BY_BITS[bits];
  }

  /** These options with {@link #enableTiming} set to {@code on}. */
  public EventOptions withTiming(boolean on) {
    return new EventOptions(on, blocking, interprocess);
  }

  /** These options with {@link #blocking} set to {@code on}. */
  public EventOptions withBlocking(boolean on) {
    return new EventOptions(enableTiming, on, interprocess);
  }

  /** These options with {@link #interprocess} set to {@code on}. */
  public EventOptions withInterprocess(boolean on) {
    return new EventOptions(enableTiming, blocking, on);
  }
}
