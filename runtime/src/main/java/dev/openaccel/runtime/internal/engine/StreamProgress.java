package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.DeviceExecutionException;

/**
 * A stream's progress as its readers see it: how many items have completed, and the failure not yet
 * reported by a synchronization. Internal.
 *
 * <p>Owns nothing itself: both fields have a single writer, the stream's consumer, which is its
 * {@link StreamActor} while it runs and, once the stream is terminated (the actor is gone), the
 * terminating call under the {@link StreamHandle}'s monitor. Producers and readers only read.
 */
final class StreamProgress {
  // Written only by the stream's consumer (see the class comment); read by query() on any thread.
  private volatile long completed;
  // Written only by the stream's consumer; read by isSettled() on any thread.
  private volatile DeviceExecutionException unreported;

  long completed() {
    return completed;
  }

  /** Counts one item as completed. Consumer only. */
  void itemCompleted() {
    completed = completed + 1; // single writer: a plain increment is enough
  }

  DeviceExecutionException unreported() {
    return unreported;
  }

  /** Adds {@code failure} to the unreported failures. Consumer only. */
  void fail(DeviceExecutionException failure) {
    unreported = Failures.merge(unreported, failure);
  }

  /** Returns the unreported failure, or null, and clears it: a sync reports it. Consumer only. */
  DeviceExecutionException report() {
    DeviceExecutionException failure = unreported;
    unreported = null;
    return failure;
  }
}
