package dev.openaccel.opencl;

import static org.lwjgl.opencl.CL10.clReleaseEvent;
import static org.lwjgl.opencl.CL10.clRetainEvent;

import dev.openaccel.runtime.spi.Marker;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongFunction;

/**
 * A marker enqueued on a {@link ClQueue}: the {@code cl_event} of an event record, which other
 * queues of the same context wait for on the device with a barrier.
 *
 * <p>A marker's end reaches its queue from its own callback, or, when barriers of other queues wait
 * for it with nothing pending in front of them, from the first of those barriers to end ({@link
 * #endedBefore}): such a barrier ends right after the marker, so its queue's callback can report
 * both (a barrier behind other work could end much later, so it reports only if the marker is still
 * unreported then). Then no callback runs on the OpenCL thread that ends the marker, in front of
 * the waiting queues (PoCL calls back before it releases the commands that wait).
 *
 * <p>Owns: its {@code cl_event} until {@link #release()} (the engine calls it once the record
 * completed and no new wait will be started on it). The event is named (by a barrier or a profiling
 * query) only under this object's monitor while it is not released, and a callback holds a
 * reference of its own, so no stale event is ever used. The count of barriers that report it is
 * atomic, read by its queue without this monitor.
 */
final class ClMarker implements Marker {
  private final ClContext context;
  private final long event;
  private final ClReports queue; // its queue's reports
  private final long seq;
  private final AtomicInteger reporters = new AtomicInteger();
  private final AtomicBoolean watchClaimed = new AtomicBoolean();
  private boolean released;

  /**
   * @param queue the reports of the queue it is on
   * @param seq its place in that queue
   */
  ClMarker(ClContext context, long event, ClReports queue, long seq) {
    this.context = context;
    this.event = event;
    this.queue = queue;
    this.seq = seq;
  }

  ClContext context() {
    return context;
  }

  /** True while a barrier that waits for this marker will report its end. */
  boolean reported() {
    return reporters.get() > 0;
  }

  /**
   * Hands this marker's event to {@code barrier}, which enqueues a wait for it, while the event is
   * sure to be live; if {@code reports}, the barrier then reports this marker's end ({@link
   * #endedBefore}, or {@link #notReported} if it fails). Only that enqueue runs under this object's
   * monitor: what {@code barrier} returns, which may lock other markers, is for the caller to run.
   * The marker's queue is flushed first, outside the monitor (OpenCL requires it before another
   * queue waits for this event; a queue that turns out lost then fails its work outside every
   * lock).
   *
   * @return what is left to run, or null if the marker is already released (nothing is enqueued)
   * @throws OpenClException if the marker's queue is lost (nothing is enqueued)
   */
  Runnable enqueueWait(boolean reports, LongFunction<Runnable> barrier) {
    queue.sendToDevice(seq);
    synchronized (this) {
      if (released) {
        return null;
      }
      if (reports) {
        reporters.incrementAndGet(); // before the barrier exists: its end or failure counts after
      }
      return barrier.apply(event);
    }
  }

  /**
   * Registers {@code watcher} for this marker's event. The callback is registered outside this
   * object's monitor, on a reference of its own to the event (released once it has run): OpenCL
   * calls back at once, on this thread, for an event already complete, and what the watcher then
   * does may lock other markers.
   *
   * @return false if the marker is already released (nothing is registered)
   */
  boolean watch(ClCallbacks.Watcher watcher) {
    synchronized (this) {
      if (released) {
        return false;
      }
      ClErrors.check(clRetainEvent(event), "clRetainEvent");
    }
    try {
      context.watch(
          event,
          (ev, status, end) -> {
            try {
              watcher.ended(ev, status, end);
            } finally {
              clReleaseEvent(ev);
            }
          });
    } catch (OpenClException e) {
      clReleaseEvent(event);
      throw e;
    }
    return true;
  }

  /**
   * A barrier waiting for this marker ended: so did the marker, and its queue hears of it. Also
   * once released: then its record completed (its queue has nothing left up to it) or its stream
   * stopped first, and the commands before it on its queue still end here, giving back what they
   * hold (a heap copy's staging memory); the end time is not read from the released event.
   */
  void endedBefore() {
    long end = 0;
    synchronized (this) {
      if (!released) {
        end = ClCallbacks.endNanos(event);
      }
    }
    queue.endedOnDevice(seq, end);
  }

  /**
   * A barrier that was to report this marker will not (it failed, or it will not be reported soon
   * itself): its queue watches the marker itself once no barrier reports it.
   */
  void notReported() {
    if (reporters.decrementAndGet() == 0) {
      queue.reportPromptly(this);
    }
  }

  /** True for the one caller that is to register this marker's callback. */
  boolean claimWatch() {
    return watchClaimed.compareAndSet(false, true);
  }

  /** Its callback ran while a barrier was reporting it: it may be watched again. */
  void unclaimWatch() {
    watchClaimed.set(false);
  }

  long seq() {
    return seq;
  }

  @Override
  public synchronized void release() {
    if (!released) {
      released = true;
      clReleaseEvent(event);
    }
  }
}
