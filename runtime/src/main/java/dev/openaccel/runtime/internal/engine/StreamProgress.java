package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.DeviceExecutionException;

/**
 * A stream's progress as its readers see it: how many items have completed, and the failure not yet
 * reported by a synchronization. Internal.
 *
 * <p>Owns nothing itself: every field has a single writer, the stream's consumer, which is its
 * {@link StreamActor} while it runs and, once the stream is terminated (the actor is gone), the
 * terminating call under the {@link StreamHandle}'s monitor. Producers and readers only read.
 */
final class StreamProgress {
  // The consumer's own count, ahead of completed by the items not yet published; consumer only.
  private long count;
  // Written only by the stream's consumer (see the class comment); read by query() on any thread.
  private volatile long completed;
  // Written only by the stream's consumer; read by isSettled() on any thread.
  private volatile DeviceExecutionException unreported;

  long completed() {
    return completed;
  }

  /** Counts one item as completed and publishes the count. Consumer only. */
  void itemCompleted() {
    completed = ++count; // single writer: a plain increment is enough
  }

  /**
   * Counts one item as completed without publishing it yet: for an item whose completion nobody can
   * observe by itself, so that a run of them costs one volatile write ({@link #publish}), not one
   * each. Consumer only.
   */
  void itemCompletedUnpublished() {
    count++;
  }

  /** Publishes the items counted so far. Consumer only. */
  void publish() {
    completed = count;
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
