package dev.openaccel.runtime.internal.engine;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * The bound on one stream's queue: at most {@code limit} items reserved and not completed ({@code
 * openaccel.stream-queue-limit}). A producer compares the reserved count with {@link #admitBelow}
 * (completed count, as last seen, plus the limit) before it reserves: below it, nothing else is
 * read. At or above it, {@link #admit} looks at the completed count again and, if the stream is
 * full, waits: a thread that may block parks (up to {@code openaccel.stream-queue-wait},
 * interruptibly); a thread that must not block is refused at once. {@code launchAsync} work waits
 * in {@code waiting}, outside the queue, and is admitted in order by the owner. Internal.
 *
 * <p>Owns: {@code admitBelow}, raised by producers and the owner alike with a compare-and-set (a
 * stale, lower value only sends a producer here, which reads the count again), closed by a waiting
 * {@code launchAsync} and reopened by the owner once none waits; {@code parked} and {@code
 * waiting}, thread-safe queues that producers add to and the owner drains ({@link #signal}, in its
 * turns after it published completions).
 */
final class QueueBound {
  /** No bound: the comparison is never true. */
  static final long UNBOUNDED = Long.MAX_VALUE;

  private static final long CLOSED = Long.MIN_VALUE; // admitBelow while launches wait
  private static final VarHandle ADMIT_BELOW;

  static {
    try {
      ADMIT_BELOW =
          MethodHandles.lookup().findVarHandle(QueueBound.class, "admitBelow", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final long limit;
  private final Duration wait;
  private final Queue<Thread> parked = new ConcurrentLinkedQueue<>();
  private final Queue<Waiting> waiting = new ConcurrentLinkedQueue<>();
  volatile long admitBelow; // read by producers on every enqueue: StreamQueue compares with it
  // Set while launchAsync work waits, with admitBelow at CLOSED: every enqueue then takes the slow
  // path, behind that work, and nobody raises admitBelow until the owner reopens it.
  private volatile boolean launchesWaiting;

  /** A bound of {@code limit} items (0: none); a blocked producer waits up to {@code wait}. */
  QueueBound(long limit, Duration wait) {
    this.limit = limit == 0 ? UNBOUNDED : limit;
    this.wait = wait;
    this.admitBelow = this.limit;
  }

  /** An item that waits for room outside the queue, and the stage its admission completes. */
  record Waiting(WorkItem.Launch item, CompletableFuture<Void> admitted) {}

  /** Whether nothing waits and one more item fits {@code queue}; see {@link #fits}. */
  private boolean hasRoom(StreamQueue queue) {
    return waiting.isEmpty() && fits(queue);
  }

  /** Whether one more item fits {@code queue}, given its completed count; raises the snapshot. */
  private boolean fits(StreamQueue queue) {
    if (limit == UNBOUNDED) {
      return true;
    }
    long below = queue.progress().completed() + limit;
    long seen = admitBelow; // read before the flag, which a waiting launch sets before CLOSED
    if (below > seen && !launchesWaiting) {
      ADMIT_BELOW.compareAndSet(this, seen, below); // fails if a waiting launch closed it meanwhile
    }
    return queue.enqueued() < below;
  }

  /**
   * Returns once {@code queue} has room for one more item (or stopped or closed: the enqueue then
   * says so); the caller found its reserved count at or above {@link #admitBelow}.
   *
   * @throws IllegalStateException containing "queue full": no room within the wait, interrupted, or
   *     on a thread that must not block
   */
  void admit(StreamQueue queue) {
    if (hasRoom(queue)) {
      return;
    }
    try {
      queue.engine().checkMayBlock("an enqueue on a full stream", "Stream.launchAsync");
    } catch (IllegalStateException mustNotBlock) {
      throw full(queue, "it must not block here: " + mustNotBlock.getMessage());
    }
    long deadline = System.nanoTime() + wait.toNanos();
    Thread self = Thread.currentThread();
    parked.add(self);
    try {
      while (!hasRoom(queue) && queue.acceptsWork()) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw full(queue, "no room came within " + wait + " (openaccel.stream-queue-wait)");
        }
        LockSupport.parkNanos(this, left);
        if (Thread.interrupted()) {
          self.interrupt();
          throw full(queue, "the waiting thread was interrupted");
        }
      }
    } finally {
      parked.remove(self);
    }
  }

  /**
   * Enqueues {@code item} (a launch: it holds nothing) now if there is room and nothing waits, else
   * queues it until there is; the stage completes once it is admitted. Never blocks.
   */
  CompletableFuture<Void> admitOrLater(StreamQueue queue, WorkItem.Launch item) {
    if (!queue.acceptsWork() || hasRoom(queue)) {
      queue.append(item); // refused at the call if the stream was closed or stopped
      return CompletableFuture.completedFuture(null);
    }
    Waiting later = new Waiting(item, new CompletableFuture<>());
    waiting.add(later);
    launchesWaiting = true; // after the add: the owner's reopening looks at waiting after it
    admitBelow = CLOSED; // after the flag: a raise that read CLOSED sees the flag
    if (!queue.acceptsWork() && waiting.remove(later)) { // stopped meanwhile: release() missed it
      queue.append(item);
    }
    queue.nudgeOwner(); // parked, gated or idle, the owner looks at waiting after its next turn
    return later.admitted();
  }

  /** Whether a producer waits for room; the owner's cheap test before {@link #signal}. */
  boolean anyWaiting() {
    return !parked.isEmpty() || !waiting.isEmpty();
  }

  /**
   * The owner's turn published completions: admits waiting items in order while there is room, and
   * wakes the parked producers to look again (all of them: each takes its own look). Owner only.
   */
  void signal(StreamQueue queue) {
    Waiting next;
    while ((next = waiting.peek()) != null && fits(queue)) {
      if (!waiting.remove(next)) {
        continue; // a close's release() or its own producer took it first
      }
      try {
        queue.append(next.item());
        next.admitted().complete(null);
      } catch (IllegalStateException stopped) {
        next.admitted().completeExceptionally(stopped);
      }
    }
    if (waiting.isEmpty() && launchesWaiting) { // reopen the fast path
      admitBelow = queue.progress().completed() + limit;
      launchesWaiting = false;
      if (!waiting.isEmpty()) { // one came between the look and the reopening
        launchesWaiting = true;
        admitBelow = CLOSED;
      }
    }
    parked.forEach(LockSupport::unpark);
  }

  /**
   * The stream stopped or closed: waiting launches (which hold nothing) fail with {@code why};
   * parked producers look again, and find it.
   */
  void release(String why) {
    Waiting next;
    while ((next = waiting.poll()) != null) {
      next.admitted().completeExceptionally(new IllegalStateException(why));
    }
    parked.forEach(LockSupport::unpark);
  }

  private IllegalStateException full(StreamQueue queue, String why) {
    return new IllegalStateException(
        queue.stream()
            + " queue full: "
            + queue.pendingWork()
            + " items not completed, its limit is "
            + limit
            + " (openaccel.stream-queue-limit); "
            + why);
  }
}
