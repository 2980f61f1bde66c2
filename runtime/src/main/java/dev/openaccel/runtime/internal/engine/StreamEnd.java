package dev.openaccel.runtime.internal.engine;

import static dev.openaccel.runtime.internal.engine.StreamQueue.CLOSING;
import static dev.openaccel.runtime.internal.engine.StreamQueue.ONE;
import static dev.openaccel.runtime.internal.engine.StreamQueue.OWNED;
import static dev.openaccel.runtime.internal.engine.StreamQueue.STOPPED;

import dev.openaccel.runtime.DeviceExecutionException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How one stream ends, the owner's part: a stop (its actor stopped: the system is shutting down, or
 * the actor failed) fails everything reserved and not run; a close ends the stream once all its
 * work has run. Either sets {@code STOPPED} on the stream's state word, after which the reserved
 * count is final and producers are refused with {@link #reason}. Internal.
 *
 * <p>Owns: {@code reason} and {@code closedCleanly}, written once, by whoever set {@code STOPPED}:
 * the stream's owner (its actor, in its turn or its {@code PostStop}), or, for a stream no actor
 * claimed, the caller that stopped or closed it. Producers read them.
 */
final class StreamEnd {
  private final StreamQueue queue;
  private final AtomicLong state;
  private volatile DeviceExecutionException reason; // written just after STOPPED
  private boolean closedCleanly; // written before reason: closed with all its work settled

  StreamEnd(StreamQueue queue) {
    this.queue = queue;
    this.state = queue.state;
  }

  /** Why the stream stopped; the caller saw {@code STOPPED}, which is set just before it. */
  DeviceExecutionException reason() {
    DeviceExecutionException why;
    while ((why = reason) == null) {
      Thread.onSpinWait();
    }
    return why;
  }

  /** Whether the stream was closed with all its work run; read after {@link #reason}. */
  boolean closedCleanly() {
    return closedCleanly;
  }

  /** Stops a closing stream that took and settled all its work; true if it did. Owner only. */
  boolean closeIfDone() {
    StreamProgress progress = queue.progress();
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

  /** The close's end, by whoever set {@code STOPPED} on a closed stream with nothing left. */
  void closed() {
    closedCleanly = true;
    reason = queue.stopFailure("it was closed");
    queue.bound().release(reason.getMessage());
    queue.engine().devices().closed(queue, queue.progress().report());
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
  void stopUnowned(String why) {
    DeviceExecutionException failure = queue.stopFailure(why);
    long s = state.get();
    while ((s & (OWNED | STOPPED)) == 0) {
      long witness = state.compareAndExchange(s, s | STOPPED);
      if (witness == s) {
        stopped(s, failure);
        return;
      }
      s = witness;
    }
  }

  // The stopper's part once it set STOPPED on state before: publish why, fail what was reserved.
  private void stopped(long before, DeviceExecutionException why) {
    reason = why;
    queue.bound().release(why.getMessage());
    queue.progress().rejectAll(takeAll(before / ONE), why);
  }

  private List<WorkItem> takeAll(long reserved) {
    StreamProgress progress = queue.progress();
    List<WorkItem> rest = new ArrayList<>((int) Math.min(reserved - progress.taken(), 64));
    while (progress.taken() < reserved) {
      rest.add(queue.arriving());
      progress.took();
    }
    return rest;
  }
}
