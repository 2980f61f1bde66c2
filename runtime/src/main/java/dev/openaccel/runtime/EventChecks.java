package dev.openaccel.runtime;

import java.time.Duration;
import java.util.Objects;

/**
 * The argument checks every {@link Event} implementation makes, with the contract's error phrases,
 * so that events of any class (generic, backend, opened from another node) reject misuse alike.
 */
public final class EventChecks {
  private EventChecks() {}

  /**
   * Checks that {@code event} can make {@code stream} wait.
   *
   * @throws IllegalArgumentException if the stream is of another device type
   */
  public static void checkBlockable(Event event, Stream stream) {
    Objects.requireNonNull(stream, "stream");
    if (!stream.deviceType().equals(event.deviceType())) {
      throw new IllegalArgumentException(
          "Event device type "
              + event.deviceType()
              + " does not match blocking stream's device type "
              + stream.deviceType()
              + ".");
    }
  }

  /**
   * The first two checks of {@link Event#elapsedTime}, in the contract's order.
   *
   * @throws IllegalArgumentException containing "does not match other's device type", then "must be
   *     created with enable_timing"
   */
  public static void checkTimingComparable(Event start, Event end) {
    Objects.requireNonNull(end, "end");
    if (!start.deviceType().equals(end.deviceType())) {
      throw new IllegalArgumentException(
          "Event device type "
              + start.deviceType()
              + " does not match other's device type "
              + end.deviceType()
              + ".");
    }
    if (!start.options().enableTiming() || !end.options().enableTiming()) {
      throw new IllegalArgumentException(
          "Both events must be created with enable_timing to calculate elapsed time (this: "
              + start.options()
              + ", other: "
              + end.options()
              + ")");
    }
  }

  /** Milliseconds, as {@link Event#elapsedTime} returns them, as a {@link Duration}. */
  public static Duration toDuration(double milliseconds) {
    return Duration.ofNanos(Math.round(milliseconds * 1_000_000.0));
  }
}
