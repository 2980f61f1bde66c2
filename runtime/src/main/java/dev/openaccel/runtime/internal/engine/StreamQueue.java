package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.DeviceExecutionException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.jctools.queues.atomic.unpadded.MpscUnboundedAtomicUnpaddedArrayQueue;

/**
 * A stream's queue and its state word: the one place producers and the stream's owner meet.
 * Internal.
 *
 * <pre>
 *   producers (any thread)                 owner (one at a time, by claim)
 *   offer: state += ONE (reserve) --.      poll / idleOrContinue (sets IDLE when all taken)
 *          items.offer(item)        |      stop: sets STOPPED, takes every reserved item
 *          IDLE cleared? -> wake    '----> state word: [ reserved count | STOPPED | OWNED | IDLE ]
 * </pre>
 *
 * <p>Ordering point: every enqueue reserves its place by one atomic add on {@code state}, then
 * appends to a multi-producer queue (JCTools' chunked MPSC array queue: no node per item). The
 * reserved count is what {@link #enqueued} returns and what the owner's count of taken items is
 * compared with: an item reserved but not yet appended is about to arrive, and the owner waits for
 * it rather than going idle or stopping without it.
 *
 * <p>Owns: {@code state}, changed only by atomic operations: producers add to the count and clear
 * {@code IDLE}; the owner sets {@code IDLE}, {@code OWNED} and {@code STOPPED} (and then {@code
 * stopReason}, once). {@code taken} and the queue's consumer side belong to the owner: the stream's
 * actor once it has {@link #claim}ed the stream, or the caller of {@link #stopUnowned} when no
 * actor ever claimed it. Whoever set {@code STOPPED} took every reserved item; a producer that
 * finds {@code STOPPED} appends nothing.
 */
final class StreamQueue {
  /** No turn pending or running: the producer that clears it must wake the owner. */
  private static final long IDLE = 1;

  /** The stream's actor has claimed the consumer side. */
  private static final long OWNED = 2;

  /** The stream takes no more work; the owner took every item reserved before. */
  private static final long STOPPED = 4;

  /** One reserved item: the count is the word's bits above the flags. */
  private static final long ONE = 8;

  // Items per array of the queue: an idle stream holds one; a busy one allocates one per this many.
  private static final int CHUNK = 32;

  /** What {@link #offer} did with an item. */
  enum Offer {
    /** Appended; the owner was idle, so the caller must wake it. */
    WAKE,
    /** Appended; the owner has a turn pending or running. */
    QUEUED,
    /** Not appended: the stream stopped. */
    STOPPED
  }

  private final MpscUnboundedAtomicUnpaddedArrayQueue<WorkItem> items =
      new MpscUnboundedAtomicUnpaddedArrayQueue<>(CHUNK);
  private final AtomicLong state = new AtomicLong(IDLE);
  private long taken; // owner only: items polled so far
  // Written once, by whoever set STOPPED, just after: producers that find STOPPED read it.
  private volatile DeviceExecutionException stopReason;

  /** How many items were ever reserved, counting appends still in progress. */
  long enqueued() {
    return state.get() / ONE;
  }

  /** Whether the stream takes no more work. */
  boolean stopped() {
    return (state.get() & STOPPED) != 0;
  }

  /**
   * Why the stream stopped; call only once {@link #offer} returned {@link Offer#STOPPED} or {@link
   * #stopped} is true. The stopper writes it just after setting the flag, so a producer that sees
   * the flag first waits the few instructions until it is there.
   */
  DeviceExecutionException stopReason() {
    DeviceExecutionException why;
    while ((why = stopReason) == null) {
      Thread.onSpinWait();
    }
    return why;
  }

  /** Appends {@code item} unless the stream stopped; thread-safe. */
  Offer offer(WorkItem item) {
    long before = state.getAndAdd(ONE);
    if ((before & STOPPED) != 0) {
      state.getAndAdd(-ONE); // the reservation is void: the owner's count was fixed at its stop
      return Offer.STOPPED;
    }
    items.offer(item);
    return (before & IDLE) != 0 && clearIdle() ? Offer.WAKE : Offer.QUEUED;
  }

  /** Clears {@code IDLE} if still set (another producer may have); true if this call did. */
  private boolean clearIdle() {
    long s = state.get();
    while ((s & IDLE) != 0 && (s & STOPPED) == 0) {
      long witness = state.compareAndExchange(s, s & ~IDLE);
      if (witness == s) {
        return true;
      }
      s = witness;
    }
    return false;
  }

  /**
   * Makes the stream's actor its owner; false if it stopped first (the actor must then stop without
   * taking anything: whoever stopped it took the items). Actor only, once.
   */
  boolean claim() {
    long s = state.get();
    while ((s & STOPPED) == 0) {
      long witness = state.compareAndExchange(s, s | OWNED);
      if (witness == s) {
        return true;
      }
      s = witness;
    }
    return false;
  }

  /** The next item, or null; owner only. */
  WorkItem poll() {
    WorkItem item = items.poll();
    if (item == null && taken < enqueued()) {
      item = arriving();
    }
    if (item != null) {
      taken++;
    }
    return item;
  }

  /** Polls, waiting up to {@code nanos} for an item to be reserved; owner only. */
  WorkItem pollWithin(long nanos) {
    WorkItem item = poll();
    long until = System.nanoTime() + nanos;
    while (item == null && System.nanoTime() < until) {
      Thread.onSpinWait();
      item = poll();
    }
    return item;
  }

  /** The item a producer reserved and is appending now: it arrives within a few instructions. */
  private WorkItem arriving() {
    WorkItem item;
    while ((item = items.poll()) == null) {
      Thread.onSpinWait();
    }
    return item;
  }

  /**
   * Called by the owner once {@link #poll} returned null: sets {@code IDLE} if nothing was reserved
   * meanwhile, so that the next producer wakes it.
   *
   * @return true if the owner should keep draining (a producer reserved an item meanwhile)
   */
  boolean idleOrContinue() {
    long s = state.get();
    while (s / ONE == taken) {
      long witness = state.compareAndExchange(s, s | IDLE);
      if (witness == s) {
        return false;
      }
      s = witness;
    }
    return true;
  }

  /**
   * Stops the stream with {@code why}: no more work is appended. Owner only, once.
   *
   * @return the items reserved and not yet taken, in order
   */
  List<WorkItem> stop(DeviceExecutionException why) {
    long s = state.getAndUpdate(v -> v | STOPPED);
    stopReason = why;
    return takeAll(s / ONE);
  }

  /**
   * Stops the stream with {@code why} if no actor claimed it: the caller is then its owner and gets
   * what is queued.
   *
   * @return the items queued, in order, or null if an actor owns the stream (its stop is the
   *     actor's) or it had stopped already
   */
  List<WorkItem> stopUnowned(DeviceExecutionException why) {
    long s = state.get();
    while ((s & (OWNED | STOPPED)) == 0) {
      long witness = state.compareAndExchange(s, s | STOPPED);
      if (witness == s) {
        stopReason = why;
        return takeAll(s / ONE);
      }
      s = witness;
    }
    return null;
  }

  private List<WorkItem> takeAll(long reserved) {
    List<WorkItem> rest = new ArrayList<>((int) Math.min(reserved - taken, 64));
    while (taken < reserved) {
      rest.add(arriving());
      taken++;
    }
    return rest;
  }
}
