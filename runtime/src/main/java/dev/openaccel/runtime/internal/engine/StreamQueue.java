package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.Stream;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
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
 *            IDLE was on? -> wake           '> state: [count|CAPTURING|CLOSING|STOPPED|OWNED|IDLE]
 * </pre>
 *
 * <p>Every enqueue reserves its place with one compare-and-set on {@code state} (which also clears
 * {@code IDLE}: one producer wakes an idle owner), then appends to JCTools' chunked MPSC array
 * queue; the actor runs items in queue order. The reserved count is what {@link #query} compares
 * with the completed count, and the owner's taken count with: a reserved item not yet appended is
 * waited for. The user's work first passes the stream's {@link QueueBound}. {@link #close} sets
 * {@code CLOSING}: the user's work is refused, the engine's own points are still taken, and the
 * owner sets {@code STOPPED} once all is settled ({@link StreamEnd#closeIfDone}). While a {@link
 * Capture} has set {@code CAPTURING}, the user's work goes to it instead.
 *
 * <p>Owns: {@code state}, changed only by compare-and-set: producers add to the count and clear
 * {@code IDLE} (never once {@code STOPPED} is set: the count is then final); the closer sets {@code
 * CLOSING}; a capture sets and clears {@code CAPTURING}; the owner sets {@code IDLE}, {@code OWNED}
 * and {@code STOPPED}. The owner (the stream's actor once it {@link #claim}ed the stream, or
 * whoever stopped a stream no actor claimed) alone writes the {@link StreamProgress} and, through
 * {@link StreamEnd}, why the stream stopped.
 */
final class StreamQueue extends StreamOps {
  static final long IDLE = 1; // no turn pending or running: who clears it wakes the owner
  static final long OWNED = 2; // the stream's actor claimed the owner's side
  static final long STOPPED = 4; // no more work: the owner took every reserved item
  static final long CLOSING = 8; // closed: only the engine's own points are still taken
  static final long CAPTURING = 16; // in a capture: the user's work goes to it, not the queue
  static final long ONE = 32; // one reserved item: the count is the bits above the flags
  private static final int CHUNK = 32; // items per array of the queue: an idle stream holds one

  private final ActorRef<DeviceActor.Command> device;
  private final int batch;
  private final QueueBound bound;
  private final MpscUnboundedAtomicUnpaddedArrayQueue<WorkItem> items =
      new MpscUnboundedAtomicUnpaddedArrayQueue<>(CHUNK);
  final AtomicLong state = new AtomicLong(IDLE); // also set by StreamEnd: STOPPED
  private final StreamProgress progress = new StreamProgress();
  private final StreamEnd end = new StreamEnd(this);
  // The capture its user work goes to: set by Capture before CAPTURING, cleared after it.
  final AtomicReference<Capture> capture = new AtomicReference<>();
  private volatile ActorRef<StreamMessage> actor; // written once, by the actor's claim

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
      boolean exclusive,
      QueueBound bound) {
    super(engine, deviceId, id, priority, exclusive);
    this.device = device;
    this.batch = batch;
    this.bound = bound;
  }

  QueueBound bound() {
    return bound;
  }

  /** How the stream ends: stopped or closed. */
  StreamEnd end() {
    return end;
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

  @Override
  public CompletionStage<Void> launchAsync(String name, Runnable kernel) {
    return bound.admitOrLater(this, new WorkItem.Launch(name, kernel));
  }

  // ---- the producers' side: any thread ----
  @Override
  void enqueue(WorkItem item) {
    long s = state.get(); // one read for the bound's comparison and the compare-and-set's first try
    if (s / ONE >= bound.admitBelow) { // full, or launches wait: look again, maybe wait
      try {
        bound.admit(this);
      } catch (IllegalStateException full) {
        item.reject(stopFailure(full.getMessage())); // never reserved: settled here
        throw full;
      }
      s = state.get();
    }
    append(item, s);
  }

  /** Appends the user's {@code item}, admitted by the bound, or refuses it. */
  void append(WorkItem item) {
    append(item, state.get());
  }

  private void append(WorkItem item, long s) {
    while (!offer(item, STOPPED | CLOSING | CAPTURING, s)) {
      s = state.get();
      if ((s & (STOPPED | CLOSING)) != 0) {
        DeviceExecutionException why =
            (s & STOPPED) == 0 ? stopFailure("it was closed") : end.reason();
        item.reject(why); // the count is fixed or closed to the user: nothing was reserved
        throw new IllegalStateException(why.getMessage(), why);
      }
      if (Capture.took(this, item, s)) {
        return; // captured; else the capture ended meanwhile and the queue takes it
      }
    }
  }

  @Override
  Capture capture() {
    return capture.get();
  }

  @Override
  void enqueueOrSettle(WorkItem item) {
    if (!offer(item, STOPPED, state.get())) {
      DeviceExecutionException why = end.reason(); // the clean-close flag is read after it
      item.reject(end.closedCleanly() ? null : why);
    }
  }

  // Reserves a place (unless a flag of refusedBy is set), appends, wakes an idle owner; s: the
  // state as last read, the first compare-and-set's expectation.
  private boolean offer(WorkItem item, long refusedBy, long s) {
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
          end.closed();
          return;
        }
        bound.release(stopFailure("it was closed").getMessage()); // none waits for room now
        if ((s & IDLE) != 0) {
          wake(); // the idle owner finds CLOSING and stops
        }
        return;
      }
      s = witness;
    }
  }

  /**
   * Makes sure the owner takes a turn soon (it looks at the bound's waiting work after each): an
   * idle owner is woken as by an enqueue, a busy, parked or gated one gets a wake-up it may skip.
   */
  void nudgeOwner() {
    long s = state.get();
    while ((s & (IDLE | STOPPED)) == IDLE) {
      long witness = state.compareAndExchange(s, s & ~IDLE);
      if (witness == s) {
        wake();
        return;
      }
      s = witness;
    }
    ActorRef<StreamMessage> ref = actor;
    if ((s & STOPPED) == 0 && ref != null) {
      ref.tell(StreamMessage.Drain.INSTANCE);
    }
  }

  @Override
  boolean closing() {
    return (state.get() & CLOSING) != 0;
  }

  // Wakes the owner, whose IDLE the caller cleared. Only the actor sets IDLE again, once it set
  // actor: a missing actor means the first enqueue.
  private void wake() {
    ActorRef<StreamMessage> ref = actor;
    if (ref == null) {
      device.tell(new DeviceActor.SpawnStream(this)); // the new actor claims the stream, drains
    } else {
      ref.tell(StreamMessage.Drain.INSTANCE);
    }
  }

  // ---- the owner's side: the stream's actor, or whoever stopped a stream no actor claimed ----

  /** Makes the stream's actor {@code ref} its owner; false if the stream was stopped first. */
  boolean claim(ActorRef<StreamMessage> ref) {
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
    long until = System.nanoTime() + nanos;
    WorkItem item;
    while ((item = poll()) == null && System.nanoTime() < until) {
      Thread.onSpinWait();
    }
    return item;
  }

  /** An item reserved and being appended: it arrives within a few instructions. Owner only. */
  WorkItem arriving() {
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
}
