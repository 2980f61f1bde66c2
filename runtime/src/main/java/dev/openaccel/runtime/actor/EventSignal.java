package dev.openaccel.runtime.actor;

import java.util.Objects;

/**
 * What a subscriber of an {@link dev.openaccel.runtime.Event} receives: exactly one signal per
 * subscription, for the record that was the latest when it subscribed.
 */
public sealed interface EventSignal {

  /** The event's id. */
  long eventId();

  /**
   * The record (1 for the first record, then counting up) the signal is about; 0 if never recorded.
   */
  long generation();

  /**
   * The recorded work completed.
   *
   * @param completedAtNanos the device clock ({@link System#nanoTime()}) when the stream reached
   *     the record
   */
  record Completed(long eventId, long generation, long completedAtNanos) implements EventSignal {}

  /** The recorded work failed, or the runtime stopped before it completed. */
  record Failed(long eventId, long generation, Throwable cause) implements EventSignal {
    /** Rejects a null {@code cause} ({@link NullPointerException}). */
    public Failed {
      Objects.requireNonNull(cause, "cause");
    }
  }
}
