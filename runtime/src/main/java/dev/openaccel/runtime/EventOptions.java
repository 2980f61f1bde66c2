package dev.openaccel.runtime;

/**
 * How an event is created, as in {@code torch.Event(enable_timing, blocking, interprocess)}.
 *
 * @param enableTiming the event records a timestamp, so {@link Event#elapsedTime} works
 * @param blocking host waits park the thread instead of spinning first
 * @param interprocess the event can be shared through an {@link EventHandle}; excludes timing
 */
public record EventOptions(boolean enableTiming, boolean blocking, boolean interprocess) {
  private static final EventOptions DEFAULTS = new EventOptions(false, false, false);

  /** All options off. */
  public static EventOptions defaults() {
    return DEFAULTS;
  }

  /** Timing on, everything else off. */
  public static EventOptions timing() {
    return DEFAULTS.withTiming(true);
  }

  public EventOptions withTiming(boolean on) {
    return new EventOptions(on, blocking, interprocess);
  }

  public EventOptions withBlocking(boolean on) {
    return new EventOptions(enableTiming, on, interprocess);
  }

  public EventOptions withInterprocess(boolean on) {
    return new EventOptions(enableTiming, blocking, on);
  }
}
