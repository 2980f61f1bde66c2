package dev.openaccel.runtime.internal.engine;

import java.util.concurrent.atomic.AtomicBoolean;
import org.jctools.queues.atomic.unpadded.MpscUnboundedAtomicUnpaddedArrayQueue;

/**
 * A stream's queue and its wake-up hand-off flag. Internal.
 *
 * <p>Ordering point: every enqueue onto the stream, from any thread, is one {@link #offer} onto a
 * linearizable multi-producer queue (JCTools' chunked MPSC array queue: one atomic step per offer,
 * no node per item); the consumer runs items in queue order. The queue's producer index counts the
 * offers from their start, so the consumer's completed count never passes {@link #enqueued}.
 *
 * <p>Owns: the queue (any thread offers; one consumer at a time polls: the stream's actor, or the
 * terminating call once the actor is gone) and {@code scheduled} (true while the consumer has a
 * wake-up pending or is draining, so producers send at most one wake-up; set by producers, cleared
 * by the consumer).
 */
final class StreamQueue {
  // Items per array of the queue: an idle stream holds one; a busy one allocates one per this many.
  private static final int CHUNK = 32;

  private final MpscUnboundedAtomicUnpaddedArrayQueue<WorkItem> items =
      new MpscUnboundedAtomicUnpaddedArrayQueue<>(CHUNK);
  private final AtomicBoolean scheduled = new AtomicBoolean();

  /** How many items were ever offered, counting offers still in progress. */
  long enqueued() {
    return items.currentProducerIndex();
  }

  /**
   * Appends {@code item}; thread-safe.
   *
   * @return true if the caller must now wake the consumer (it was idle; the flag is now set)
   */
  boolean offer(WorkItem item) {
    items.offer(item);
    // Read before the CAS: while the consumer drains, the flag is set and most offers stop here.
    return !scheduled.get() && scheduled.compareAndSet(false, true);
  }

  /** The next item, or null; consumer only. */
  WorkItem poll() {
    return items.poll();
  }

  /** Polls, waiting up to {@code nanos} for an item to arrive; consumer only. */
  WorkItem pollWithin(long nanos) {
    WorkItem item = items.poll();
    long until = System.nanoTime() + nanos;
    while (item == null && System.nanoTime() < until) {
      Thread.onSpinWait();
      item = items.poll();
    }
    return item;
  }

  /**
   * Called by the consumer with an empty queue: clears the wake-up flag, then keeps draining only
   * if a producer slipped an item in meanwhile without sending a wake-up. The flag's write and the
   * producer's offer are both sequentially consistent, so one of the two sees the other.
   *
   * @return true if the consumer should keep draining
   */
  boolean idleOrContinue() {
    scheduled.set(false);
    return !items.isEmpty() && scheduled.compareAndSet(false, true);
  }
}
