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
 *            IDLE was on? -> wake           '> state: [ count | CLOSING | STOPPED | OWNED | IDLE ]
 * </pre>
 *
 * <p>Ordering point: every enqueue reserves its place with one compare-and-set on {@code state}
 * (which also clears {@code IDLE}: one producer wakes an idle owner), then appends to JCTools'
 * chunked MPSC array queue; the actor runs items in queue order (the mailbox only carries
 * wake-ups). The reserved count is what {@link #query} compares with the completed count, and what
 * the owner's taken count is compared with: a reserved item not yet appended is waited for. {@link
 * #close} sets {@code CLOSING}: the user's work is refused from then on, the engine's own points
 * (device synchronize, a freed buffer's markers) are still taken, and the owner sets {@code
 * STOPPED} once it has taken and settled everything ({@link #closeIfDone}).
 *
 * <p>Owns: {@code state}, changed only by compare-and-set: producers add to the count and clear
 * {@code IDLE}, never once {@code STOPPED} is set (the count is then final); the closer sets {@code
 * CLOSING}; the owner sets {@code IDLE}, {@code OWNED} and {@code STOPPED}. The owner (the stream's
 * actor once it {@link #claim}ed the stream, or whoever stopped a stream no actor claimed) alone
 * writes the {@link StreamProgress}, {@code closedCleanly} and {@code stopReason}, just after
 * {@code STOPPED}. A producer that finds {@code STOPPED} appends nothing and settles only its own
 * item.
 */
final class StreamQueue extends StreamOps {
  private static final long IDLE = 1; // no turn pending or running: who clears it wakes the owner
  private static final long OWNED = 2; // the stream's actor claimed the owner's side
  private static final long STOPPED = 4; // no more work: the owner took every reserved item
  private static final long CLOSING = 8; // closed: only the engine's own points are still taken
  private static final long ONE = 16; // one reserved item: the count is the bits above the flags
  private static final int CHUNK = 32; // items per array of the queue: an idle stream holds one

  private final ActorRef<DeviceActor.Command> device;
  private final int batch;
  private final MpscUnboundedAtomicUnpaddedArrayQueue<WorkItem> items =
      new MpscUnboundedAtomicUnpaddedArrayQueue<>(CHUNK);
  private final AtomicLong state = new AtomicLong(IDLE);
  private final StreamProgress progress = new StreamProgress();
  private volatile DeviceExecutionException stopReason; // the owner's, once STOPPED is set
  private boolean closedCleanly; // written before stopReason: closed with all its work settled
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
      int batch,
      boolean exclusive) {
    super(engine, deviceId, id, priority, exclusive);
    this.device = device;
    this.batch = batch;
  }

  @Override
  StreamProgress progress() {
    return progress;
  }

  int batch() {
    return batch;
  }

  @Override
  long enqueued() {
    return state.get() / ONE;
  }

  @Override
  boolean acceptsWork() {
    return (state.get() & (STOPPED | CLOSING)) == 0;
  }

  @Override
  public void launch(String name, Runnable kernel) {
    enqueue(new WorkItem.Launch(name, kernel));
  }

  // ---- the producers' side: any thread ----

  @Override
  void enqueue(WorkItem item) {
    if (!offer(item, STOPPED | CLOSING)) {
      DeviceExecutionException why =
          (state.get() & STOPPED) == 0 ? stopFailure("it was closed") : stopReason();
      item.reject(why); // the count is fixed or closed to the user: nothing was reserved
      throw new IllegalStateException(why.getMessage(), why);
    }
  }

  @Override
  void enqueueOrSettle(WorkItem item) {
    if (!offer(item, STOPPED)) {
      DeviceExecutionException why = stopReason(); // reads closedCleanly after it
      item.reject(closedCleanly ? null : why);
    }
  }

  // Reserves a place (unless a flag of refusedBy is set), appends, wakes an idle owner.
  private boolean offer(WorkItem item, long refusedBy) {
    long s = state.get();
    for (long seen; (s & refusedBy) == 0; s = seen) {
      seen = state.compareAndExchange(s, (s + ONE) & ~IDLE); // reserve, and take the wake-up
      if (seen == s) {
        items.offer(item);
        if ((s & IDLE) != 0) {
          wake();
        }
        return true;
      }
    }
    return false;
  }

  @Override
  void closeQueue() { // the user's side: any thread
    long s = state.get();
    while ((s & (CLOSING | STOPPED)) == 0) {
      boolean unowned = (s & (OWNED | IDLE)) == IDLE; // never had work: no actor will come
      long witness =
          state.compareAndExchange(s, unowned ? s | CLOSING | STOPPED : (s | CLOSING) & ~IDLE);
      if (witness == s) {
        if (unowned) {
          closed();
        } else if ((s & IDLE) != 0) {
          wake(); // the idle owner finds CLOSING and stops
        }
        return;
      }
      s = witness;
    }
  }

  @Override
  boolean closing() {
    return (state.get() & CLOSING) != 0;
  }

  // Wakes the owner, whose IDLE the caller cleared. Only the actor sets IDLE again, once it set
  // actor: a missing actor means the first enqueue.
  private void wake() {
    ActorRef<StreamActor.Command> ref = actor;
    if (ref == null) {
      device.tell(new DeviceActor.SpawnStream(this)); // the new actor claims the stream, drains
    } else {
      ref.tell(StreamActor.Drain.INSTANCE);
    }
  }

  // Why it stopped: written just after the flag, which a reader saw first.
  private DeviceExecutionException stopReason() {
    DeviceExecutionException why;
    while ((why = stopReason) == null) {
      Thread.onSpinWait();
    }
    return why;
  }

  // ---- the owner's side: the stream's actor, or whoever stopped a stream no actor claimed ----

  /** Makes the stream's actor {@code ref} its owner; false if the stream was stopped first. */
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

  /** Once {@link #poll} gave null: sets {@code IDLE}, or, if an item came meanwhile, true. */
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

  /** Stops a closing stream that took and settled all its work; true if it did. Owner only. */
  boolean closeIfDone() {
    long s = state.get();
    while ((s & (CLOSING | STOPPED)) == CLOSING && s / ONE == progress.taken() && progress.idle()) {
      long witness = state.compareAndExchange(s, s | STOPPED);
      if (witness == s) {
        closed();
        return true;
      }
      s = witness;
    }
    return false;
  }

  private void closed() { // the owner's, once it set STOPPED on a closed stream
    closedCleanly = true;
    stopReason = stopFailure("it was closed");
    engine().closed(this, progress.report());
  }

  /** Stops the stream, failing what was reserved and not taken with {@code why}. Owner only. */
  void stop(DeviceExecutionException why) {
    long before = state.getAndUpdate(v -> v | STOPPED);
    if ((before & STOPPED) == 0) {
      stopped(before, why);
    }
  }

  /**
   * Stops the stream if no actor claimed it (its spawn may never be handled during shutdown): the
   * caller is then its owner and fails its queued work. Any thread; idempotent.
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

  // The stopper's part once it set STOPPED on state before: publish why, fail what was reserved.
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
