package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.Stream;
import java.util.List;

/**
 * A stream's progress as its readers see it: how many items have completed, and the failure not yet
 * reported by a synchronization. Internal.
 *
 * <p>Owns: every field, written only by the stream's owner: its {@link StreamActor}, or, for a
 * stream that no actor ever claimed, the caller that stopped it ({@link StreamEnd#stopUnowned}).
 * The state word of {@link StreamQueue} makes that one thread; producers and readers only read.
 */
final class StreamProgress {
  // Items taken from the queue; owner only. Kept here, not in the queue that producers read on
  // every enqueue, so that counting them writes no cache line the producers read.
  private long taken;
  // The owner's own count, ahead of completed by the items not yet published; owner only.
  private long count;
  // Written only by the stream's owner (see the class comment); read by query() on any thread.
  private volatile long completed;
  // Written only by the stream's owner; read by isSettled() on any thread.
  private volatile DeviceExecutionException unreported;

  /** How many items the owner has taken from the stream's queue. Owner only. */
  long taken() {
    return taken;
  }

  /** Counts one item taken from the stream's queue. Owner only. */
  void took() {
    taken++;
  }

  /** Whether every item taken has been settled: none is parked, gated or in flight. Owner only. */
  boolean idle() {
    return count == taken;
  }

  long completed() {
    return completed;
  }

  /** Counts one item as completed and publishes the count. Owner only. */
  void itemCompleted() {
    completed = ++count; // single writer: a plain increment is enough
  }

  /**
   * Counts one item as completed without publishing it yet: for an item whose completion nobody can
   * observe by itself, so that a run of them costs one volatile write ({@link #publish}), not one
   * each. Owner only.
   */
  void itemCompletedUnpublished() {
    count++;
  }

  /** Publishes the items counted so far. Owner only. */
  void publish() {
    completed = count;
  }

  DeviceExecutionException unreported() {
    return unreported;
  }

  /** Adds {@code failure}, if not null, to the unreported failures. Owner only. */
  void fail(DeviceExecutionException failure) {
    if (failure != null) {
      unreported = Failures.merge(unreported, failure);
    }
  }

  /** Returns the unreported failure, or null, and clears it: a sync reports it. Owner only. */
  DeviceExecutionException report() {
    DeviceExecutionException failure = unreported;
    unreported = null;
    return failure;
  }

  /**
   * Settles {@code rest}, the items the stopped stream will never run, as failed with {@code why}:
   * each is counted, what was unreported is superseded by {@code why}, and only then are the items
   * rejected (which completes callers' futures: their stages see the counts already). Owner only.
   */
  void rejectAll(List<WorkItem> rest, DeviceExecutionException why) {
    count += rest.size();
    completed = count;
    report();
    fail(why);
    for (WorkItem item : rest) {
      item.reject(why);
    }
  }

  /**
   * Makes {@code generation}'s failure, if any, the failure of {@code stream}, which waited on it:
   * reported where the stream next synchronizes. Owner only.
   */
  void absorb(Stream stream, Generation generation) {
    DeviceExecutionException cause = generation.failure();
    if (cause != null && unreported == null) {
      fail(
          new DeviceExecutionException(
              stream + " waited on " + generation + ", which failed: " + cause.getMessage(),
              cause.getCause()));
    }
  }

  /**
   * Settles {@code sync}, reporting the unreported failure through it, and counts it. Owner only.
   */
  void settle(WorkItem.Sync sync) {
    DeviceExecutionException failure = report();
    itemCompleted();
    sync.settle(failure);
  }
}
