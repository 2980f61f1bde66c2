package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.Stream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.pekko.actor.typed.ActorRef;
import org.jctools.queues.atomic.unpadded.MpscUnboundedAtomicUnpaddedArrayQueue;

/**
 * A stream's queue, seen from both sides: producers (any thread: the public {@link Stream}'s
 * operations) append work and wake the stream's {@link StreamActor}; its owner takes the work in
 * order. Internal.
 *
 * <pre>
 *   producers (any thread)                     owner (one thread at a time, by claim)
 *   enqueue: CAS state: count+1, IDLE off --.  poll, idleOrContinue (sets IDLE once all taken)
 *            items.offer(item)              |  stop: sets STOPPED, takes every reserved item
 *            IDLE was on? -> wake           '> state: [ reserved count | STOPPED | OWNED | IDLE ]
 * </pre>
 *
 * <p>Ordering point: every enqueue reserves its place with one compare-and-set on {@code state}
 * (which also clears {@code IDLE}: one producer wakes an idle owner), then appends to JCTools'
 * chunked MPSC array queue; the actor runs items in queue order (the mailbox only carries
 * wake-ups). The reserved count is what {@link #query} compares with the completed count, and what
 * the owner's taken count is compared with: a reserved item not yet appended is waited for.
 *
 * <p>Owns: {@code state}, changed only by compare-and-set: producers add to the count and clear
 * {@code IDLE}, never once {@code STOPPED} is set (the count is then final); the owner sets {@code
 * IDLE}, {@code OWNED} and {@code STOPPED}. The owner (the stream's actor once it {@link #claim}ed
 * the stream, or whoever won {@link #stopUnowned}) alone writes the {@link StreamProgress} and
 * {@code stopReason}, just after {@code STOPPED}. A producer that finds {@code STOPPED} appends
 * nothing and settles only its own item.
 */
final class StreamQueue extends StreamOps {
  private static final long IDLE = 1; // no turn pending or running: who clears it wakes the owner
  private static final long OWNED = 2; // the stream's actor claimed the owner's side
  private static final long STOPPED = 4; // no more work: the owner took every reserved item
  private static final long ONE = 8; // one reserved item: the count is the bits above the flags
  private static final int CHUNK = 32; // items per array of the queue: an idle stream holds one

  private final ActorRef<DeviceActor.Command> device;
  private final int batch;
  private final MpscUnboundedAtomicUnpaddedArrayQueue<WorkItem> items =
      new MpscUnboundedAtomicUnpaddedArrayQueue<>(CHUNK);
  private final AtomicLong state = new AtomicLong(IDLE);
  private final StreamProgress progress = new StreamProgress();
  private volatile DeviceExecutionException stopReason; // the owner's, once STOPPED is set
  private volatile ActorRef<StreamActor.Command> actor; // written once, by the actor's claim

  /**
   * A stream of {@code device}'s actor, which spawns this stream's actor on the first enqueue (a
   * stream that never gets work never costs an actor); {@code batch}: items per turn.
   */
  StreamQueue(
      ActorEngine engine,
      ActorRef<DeviceActor.Command> device,
      Device deviceId,
      long id,
      int priority,
      int batch) {
    super(engine, deviceId, id, priority);
    this.device = device;
    this.batch = batch;
  }

  StreamProgress progress() {
    return progress;
  }

  int batch() {
    return batch;
  }

  @Override
  public boolean query() {
    long target = enqueued(); // read first: completed then covers at least these
    return progress.completed() >= target;
  }

  /** How many items were ever reserved, counting appends in progress; final once stopped. */
  long enqueued() {
    return state.get() / ONE;
  }

  @Override
  boolean isSettled() {
    return query() && progress.unreported() == null;
  }

  @Override
  boolean acceptsWork() {
    return (state.get() & STOPPED) == 0;
  }

  @Override
  public void launch(String name, Runnable kernel) {
    enqueue(new WorkItem.Launch(name, kernel));
  }

  // ---- the producers' side: any thread ----

  @Override
  void enqueue(WorkItem item) {
    long s = state.get();
    for (long seen; (s & STOPPED) == 0; s = seen) {
      seen = state.compareAndExchange(s, (s + ONE) & ~IDLE); // reserve, and take the wake-up
      if (seen == s) {
        items.offer(item);
        if ((s & IDLE) != 0) {
          wake();
        }
        return;
      }
    }
    DeviceExecutionException stopped = stopReason(); // the count is fixed: nothing was reserved
    item.reject(stopped);
    throw new IllegalStateException(stopped.getMessage(), stopped);
  }

  /**
   * Wakes the actor; the caller has just cleared {@code IDLE}, which only the owner sets again.
   * Until the actor exists nobody can set it again (the actor does, after it set {@code actor}), so
   * a missing actor means the first enqueue.
   */
  private void wake() {
    ActorRef<StreamActor.Command> ref = actor;
    if (ref == null) {
      device.tell(new DeviceActor.SpawnStream(this)); // the new actor claims the stream, drains
    } else {
      ref.tell(StreamActor.Drain.INSTANCE);
    }
  }

  // Why the stream stopped: written just after the flag, so a reader that saw the flag first waits
  // those few instructions.
  private DeviceExecutionException stopReason() {
    DeviceExecutionException why;
    while ((why = stopReason) == null) {
      Thread.onSpinWait();
    }
    return why;
  }

  // ---- the owner's side: the stream's actor, or whoever stopped a stream no actor claimed ----

  /**
   * Makes the stream's actor {@code ref} its owner; false if the stream was stopped first (the
   * actor must then stop without taking anything: whoever stopped the stream settled its work).
   */
  boolean claim(ActorRef<StreamActor.Command> ref) {
    long s = state.get();
    while ((s & STOPPED) == 0) {
      long witness = state.compareAndExchange(s, s | OWNED);
      if (witness == s) {
        actor = ref; // before the owner can set IDLE: a later waker sees it
        return true;
      }
      s = witness;
    }
    return false;
  }

  /** The next item, or null; owner only. */
  WorkItem poll() {
    WorkItem item = items.poll();
    if (item == null && progress.taken() < state.get() / ONE) {
      item = arriving();
    }
    if (item != null) {
      progress.took();
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

  /** An item reserved and being appended: it arrives within a few instructions. */
  private WorkItem arriving() {
    WorkItem item;
    while ((item = items.poll()) == null) {
      Thread.onSpinWait();
    }
    return item;
  }

  /**
   * Called by the owner once {@link #poll} returned null: sets {@code IDLE} (so that the next
   * producer wakes it) unless an item was reserved meanwhile: then true, keep draining.
   */
  boolean idleOrContinue() {
    long s = state.get();
    while (s / ONE == progress.taken()) {
      long witness = state.compareAndExchange(s, s | IDLE);
      if (witness == s) {
        return false;
      }
      s = witness;
    }
    return true;
  }

  /**
   * Stops the stream: no more work is appended; what was reserved and not taken is settled as
   * failed with {@code why}. Owner only, once.
   */
  void stop(DeviceExecutionException why) {
    stopped(state.getAndUpdate(v -> v | STOPPED), why);
  }

  /**
   * Stops the stream if no actor ever claimed it (its first enqueue's spawn request may never be
   * handled during shutdown, or it never had work): the caller is then its owner and settles its
   * queued work as failed. A stream with an actor is left to that actor's stop. Idempotent; any
   * thread.
   */
  void stopUnowned(String reason) {
    DeviceExecutionException why = stopFailure(reason);
    long s = state.get();
    while ((s & (OWNED | STOPPED)) == 0) {
      long witness = state.compareAndExchange(s, s | STOPPED);
      if (witness == s) {
        stopped(s, why);
        return;
      }
      s = witness;
    }
  }

  /**
   * The stopper's part once it set {@code STOPPED} on state {@code before}: publishes why, then
   * takes every item reserved before and settles it as failed.
   */
  private void stopped(long before, DeviceExecutionException why) {
    stopReason = why;
    progress.rejectAll(takeAll(before / ONE), why);
  }

  private List<WorkItem> takeAll(long reserved) {
    List<WorkItem> rest = new ArrayList<>((int) Math.min(reserved - progress.taken(), 64));
    while (progress.taken() < reserved) {
      rest.add(arriving());
      progress.took();
    }
    return rest;
  }
}
