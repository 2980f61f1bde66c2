package dev.openaccel.opencl;

import static org.lwjgl.opencl.CL10.clReleaseEvent;

import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Completion reports of one {@link ClQueue}: registers the callbacks (or waiting threads, {@link
 * Completions}) its pending commands asked for, and completes those commands when a report arrives,
 * from its own callback or from a barrier of another queue that waited for one of its markers
 * ({@link ClMarker#endedBefore}).
 *
 * <p>Completions are coalesced, since the queue is in order: a command ends once a later one has.
 * Only a command or record submitted while no callback is outstanding, first in a run of
 * submissions (or, in a long one, {@value ClBatch#DEFERRED_AT_MOST} or more after the last that got
 * one), gets one (barriers never do); a callback completes every command up to its own. When none
 * is outstanding and commands are left (at {@link ClQueue#flush}, or after a callback once every
 * command left was flushed: until then the stream's next flush will do it), the last of them
 * decides: a marker that a barrier of another queue waits for is reported by that barrier ({@link
 * ClBarrier}); another marker gets a callback on its own event (skipped if a barrier took over by
 * then); other commands get a marker behind them (and at {@link ClQueue#close()} every command left
 * does, whatever is outstanding, since no report arms one after the release). A barrier takes the
 * report over only if nothing but markers of its own queue is pending in front of it, so that it
 * runs as soon as the marker ends. So no callback runs on the OpenCL thread that ends a waited-for
 * marker or a barrier (PoCL calls back before it releases the commands waiting), and a cross-stream
 * hop stays on the device. But a record never waits for later work to be reported: when a command
 * that is not a marker is enqueued behind a marker, that marker gets its own callback (unless a
 * barrier reports it), and behind a barrier, the barrier hands its marker's report back to that
 * marker's queue.
 *
 * <p>A queue whose {@code clFlush} fails is lost for good, as a CUDA context with a sticky error
 * is: the commands it holds may never reach the device, so their completions fail at once, naming
 * the error; later submissions fail without an OpenCL call; no other queue waits on the device for
 * its markers, and its barriers hand the reports of other queues' markers back to those queues. Its
 * commands stay referenced, with the staging memory they use, and it still asks for a report of the
 * last: what the device does run still ends and gives its memory back (on a device that is really
 * gone nothing does, and that memory is kept rather than freed under it).
 *
 * <p>Owns: no mutable state, and no lock. It runs on OpenCL's callback threads, on waiting threads,
 * and on the thread that registers a callback for an event already complete (OpenCL then calls back
 * at once); the state it changes is its queue's {@link ClPending}, under that object's monitor. It
 * takes the queue's enqueue lock only through {@link ClQueue#armAfterReport}, and only once it has
 * completed what ended. No completion runs under a lock.
 */
final class ClReports {
  // The queue's category, as before the queue's reports had a class of their own.
  private static final Logger LOG = LoggerFactory.getLogger(ClQueue.class);

  private final ClContext context;
  private final ClTrace trace;
  private final ClQueue queue;
  private final ClPending pending;

  ClReports(ClContext context, ClTrace trace, ClQueue queue) {
    this.context = context;
    this.trace = trace;
    this.queue = queue;
    this.pending = new ClPending(queue, this);
  }

  ClPending pending() {
    return pending;
  }

  /** Whether commands without a report of their own keep their events for trace spans. */
  boolean tracing() {
    return trace.enabled();
  }

  /**
   * Registers the callback of {@code handle}, the event of command {@code seq}, once the command is
   * flushed. A report is watched only once the command is on its way to the device, so that a
   * waiting thread ({@link Completions}) waits no longer than the command takes: on NVIDIA's
   * platform a thread waiting for an event of a queue makes enqueues onto that queue about 4x
   * slower (48.6 against 11.0 µs per empty kernel, an H100), and an unflushed command may wait on
   * the host for as long as its stream keeps submitting. {@code command} is null for a marker.
   */
  void watch(long handle, long seq, ClWork command) {
    send(seq);
    try {
      context.watch(
          handle,
          (ev, status, end) -> {
            if (command != null) {
              trace.ended(command.name(), command.spanStart(ev), ev, status);
            }
            clReleaseEvent(ev);
            settle(seq, status, end, null, true);
          });
    } catch (OpenClException e) {
      clReleaseEvent(handle);
      settle(seq, e.code(), 0, e, true);
    }
  }

  /** Registers a callback on {@code marker}'s own event (which the marker keeps), once flushed. */
  void watchMarker(ClMarker marker) {
    long seq = marker.seq();
    send(seq);
    try {
      ClCallbacks.Watcher watcher =
          (ev, status, end) -> {
            if (status >= 0 && marker.reported()) {
              marker.unclaimWatch(); // should that barrier hand the report back, watch again
              settle(0, status, end, null, true); // a barrier took the report over meanwhile
            } else {
              settle(seq, status, end, null, true);
            }
          };
      if (!marker.watch(watcher)) {
        queue.rearmBehind(); // released: the engine is done with it; report the rest another way
      }
    } catch (OpenClException e) {
      settle(seq, e.code(), 0, e, true);
    }
  }

  /**
   * {@link ClQueue#sendToDevice}, from a path that has no caller to tell of a failure (the queue is
   * lost then, and its commands' completions have failed).
   */
  void send(long upTo) {
    try {
      queue.sendToDevice(upTo);
    } catch (OpenClException e) {
      // reported through the commands' completions
    }
  }

  /** {@link ClQueue#sendToDevice}, for a barrier of another queue on one of its markers. */
  void sendToDevice(long seq) {
    queue.sendToDevice(seq);
  }

  /** {@link ClPending#reportPromptly}, for a marker no barrier reports any more. */
  void reportPromptly(ClMarker marker) {
    pending.reportPromptly(marker);
  }

  /** Marker {@code seq} ended, as a barrier of another queue that waited for it reports. */
  void endedOnDevice(long seq, long endNanos) {
    settle(seq, 0, endNanos, null, false);
  }

  /**
   * The command {@code seq} ended: completes it and every command before it, then makes sure the
   * commands left will be reported.
   *
   * @param fromCallback true for this queue's own callback (one fewer outstanding)
   */
  private void settle(
      long seq, int status, long endNanos, OpenClException cause, boolean fromCallback) {
    ClPending.Ended ended = pending.take(seq, fromCallback);
    for (ClEntry entry : ended.entries()) {
      boolean failed = entry.seq() == seq && status < 0;
      ClWork work = entry.work();
      if (entry.traced() != 0) {
        trace.endedBefore(
            work.name(), work.spanStart(entry.traced()), entry.traced(), failed, endNanos);
        entry.releaseTraced();
      }
      RuntimeException found = null;
      if (work != null) {
        // After close the engine has failed what is left: a copy then gives its staging memory back
        // without writing the caller's buffer, while a barrier still reports its marker's end.
        boolean completed = !failed && (!ended.afterClose() || work instanceof ClBarrier);
        found = completed ? work.failureOnDevice() : null;
        work.ended(completed);
      }
      if (entry.seq() <= ended.failedUpTo()) {
        continue; // its completion failed when the queue was lost
      }
      if (failed) {
        entry.done().fail(cause != null ? cause : new OpenClException(entry.what(), status));
      } else if (found != null) {
        entry.done().fail(found); // e.g. a checked kernel's out-of-bounds access
      } else {
        entry.done().complete(endNanos);
      }
    }
    // A marker is to be enqueued: again in order, once what ended is completed.
    Runnable arm = ended.arm() != null ? ended.arm() : queue.armAfterReport();
    arm.run(); // a marker it watches is flushed first
  }

  /**
   * The queue was lost with {@code held} pending: fails their completions with {@code failed}, and
   * hands the reports its barriers were to make back to their markers' queues (a healthy stream
   * waits not on this one).
   */
  static void lost(List<ClEntry> held, OpenClException failed) {
    LOG.error("{}", failed.getMessage());
    for (ClEntry entry : held) {
      entry.done().fail(failed);
      if (entry.work() instanceof ClBarrier barrier) {
        barrier.handBack();
      }
    }
  }
}
