package dev.openaccel.runtime.spi;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.InlineEvent;
import dev.openaccel.runtime.Stream;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The argument checks of the {@link Event} contract, with its error phrases, in one place: events
 * of any class (generic, backend, opened from another node) reject misuse alike, and each check
 * runs once per call.
 */
public final class EventChecks {
  private EventChecks() {}

  /**
   * Checks that {@code backend} can create events with {@code options}.
   *
   * @throws IllegalArgumentException if {@code options} asks for both interprocess and timing
   * @throws UnsupportedOperationException naming the backend and the option it does not support
   */
  public static void checkOptions(DeviceGuardImpl backend, EventOptions options) {
    if (options.interprocess() && options.enableTiming()) {
      throw new IllegalArgumentException(
          "an event cannot be both interprocess and timing (enable_timing): " + options);
    }
    Capability missing = null;
    if (!backend.capabilities().contains(Capability.EVENTS)) {
      missing = Capability.EVENTS;
    } else if (options.enableTiming() && !backend.capabilities().contains(Capability.TIMING)) {
      missing = Capability.TIMING;
    } else if (options.interprocess()
        && !backend.capabilities().contains(Capability.INTERPROCESS_EVENTS)) {
      missing = Capability.INTERPROCESS_EVENTS;
    }
    if (missing != null) {
      throw backend.unsupported("events with option " + missing + " (requested " + options + ")");
    }
  }

  /**
   * Checks that an event of {@code type}, bound to device {@code boundIndex} (-1 until its first
   * record), can be recorded on {@code stream}.
   *
   * @throws IllegalArgumentException containing "does not match recording stream's device type" or
   *     "does not match recording stream's device"
   */
  public static void checkRecordable(DeviceType type, int boundIndex, Stream stream) {
    Objects.requireNonNull(stream, "stream");
    if (!stream.deviceType().equals(type)) {
      throw new IllegalArgumentException(
          "Event device type "
              + type
              + " does not match recording stream's device type "
              + stream.deviceType()
              + ".");
    }
    if (boundIndex != -1 && boundIndex != stream.deviceIndex()) {
      throw new IllegalArgumentException(
          "Event device "
              + Device.of(type, boundIndex)
              + " does not match recording stream's device "
              + stream.device()
              + ".");
    }
  }

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
   * The first two checks of {@link Event#elapsedTime}, in the contract's order; all an event
   * without timing needs.
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

  /**
   * The last three checks of {@link Event#elapsedTime}, in the contract's order: recorded,
   * completed, same device. Run after {@link #checkTimingComparable}.
   *
   * @throws IllegalStateException containing "must be recorded before calculating elapsed time" or
   *     "must be completed before calculating elapsed time"
   * @throws IllegalArgumentException containing "must be recorded on the same device"
   */
  public static void checkMeasurable(Event start, Event end) {
    if (!start.wasRecorded() || !end.wasRecorded()) {
      throw new IllegalStateException(
          "Both events must be recorded before calculating elapsed time (this recorded: "
              + start.wasRecorded()
              + ", other recorded: "
              + end.wasRecorded()
              + ")");
    }
    if (!start.query() || !end.query()) {
      throw new IllegalStateException(
          "Both events must be completed before calculating elapsed time");
    }
    Optional<Device> first = start.device();
    Optional<Device> second = end.device();
    if (!first.equals(second)) {
      throw new IllegalArgumentException(
          "Both events must be recorded on the same device to calculate elapsed time (this: "
              + first.map(Device::toString).orElse("none")
              + ", other: "
              + second.map(Device::toString).orElse("none")
              + ")");
    }
  }

  /**
   * The first check of {@link Event#handle}: the event must be interprocess.
   *
   * @throws IllegalStateException containing "not an interprocess event"
   */
  public static void checkInterprocess(Event event) {
    if (!event.options().interprocess()) {
      throw new IllegalStateException(
          "not an interprocess event: create it with EventOptions.withInterprocess(true), got "
              + event.options());
    }
  }

  /**
   * The last check of {@link Event#handle}, after the closed check: a handle names a record.
   *
   * @throws IllegalStateException containing "must be recorded before its handle is taken"
   */
  public static void checkExportable(Event event) {
    if (!event.wasRecorded()) {
      throw new IllegalStateException(
          "an interprocess event must be recorded before its handle is taken");
    }
  }

  /**
   * Checks that {@code backend} can record with {@code flag}: what a direct caller of {@link
   * DeviceGuardImpl#record} may get wrong ({@link InlineEvent}-style events derive the flag from
   * options {@link #checkOptions} checked).
   *
   * @throws UnsupportedOperationException if the backend has no events, or no timing for {@link
   *     EventFlag#BACKEND_DEFAULT}
   * @throws IllegalArgumentException for a null or {@link EventFlag#INVALID} flag
   */
  public static void checkFlag(DeviceGuardImpl backend, EventFlag flag) {
    if (!backend.capabilities().contains(Capability.EVENTS)) {
      throw backend.unsupported("events");
    }
    if (flag == null || flag == EventFlag.INVALID) {
      throw new IllegalArgumentException("invalid event flag " + flag + " for " + backend.type());
    }
    if (flag == EventFlag.BACKEND_DEFAULT && !backend.capabilities().contains(Capability.TIMING)) {
      throw backend.unsupported("timing events (enable_timing)");
    }
  }

  /**
   * Checks that {@code stream} can wait on an event of device {@code eventDeviceIndex}.
   *
   * @throws UnsupportedOperationException if they are different devices and {@code backend} does
   *     not declare {@link Capability#CROSS_DEVICE_WAIT}
   */
  public static void checkWaitable(DeviceGuardImpl backend, int eventDeviceIndex, Stream stream) {
    if (eventDeviceIndex != stream.deviceIndex()
        && !backend.capabilities().contains(Capability.CROSS_DEVICE_WAIT)) {
      throw backend.unsupported("waiting on an event of another device");
    }
  }

  /** Milliseconds, as {@link Event#elapsedTime} returns them, as a {@link Duration}. */
  public static Duration toDuration(double milliseconds) {
    return Duration.ofNanos(Math.round(milliseconds * 1_000_000.0));
  }
}
