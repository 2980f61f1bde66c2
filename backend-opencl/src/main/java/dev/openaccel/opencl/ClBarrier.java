package dev.openaccel.opencl;

import static org.lwjgl.opencl.CL12.nclEnqueueBarrierWithWaitList;

import dev.openaccel.runtime.spi.Completion;
import java.util.concurrent.atomic.AtomicBoolean;
import org.lwjgl.system.MemoryStack;

/**
 * A barrier on one marker's event, as a command of the waiting stream's queue. When it ends, it
 * reports its marker's end to the marker's queue ({@link ClMarker#endedBefore}); if it fails, or
 * was enqueued behind pending work (so it may end long after the marker), that queue reports the
 * marker itself. Its queue never gives it a callback of its own (see {@link ClQueue}). Used once.
 */
final class ClBarrier implements ClWork {
  private final ClMarker marker;
  private final long markerEvent;
  private final AtomicBoolean handedBack = new AtomicBoolean();

  /**
   * @param markerEvent the marker's event, live while this is enqueued ({@link
   *     ClMarker#enqueueWait})
   * @param reports whether this barrier reports the marker's end (it was counted as a reporter)
   */
  ClBarrier(ClMarker marker, long markerEvent, boolean reports) {
    this.marker = marker;
    this.markerEvent = markerEvent;
    handedBack.set(!reports);
  }

  /**
   * Makes later work on {@code queue} wait on the device for {@code marker} (of the same context):
   * enqueues a barrier on it, completing {@code done} when it ends. If {@code reports} (nothing but
   * markers is pending on {@code queue}, {@link ClPending#runsAtOnce}), the barrier runs as soon as
   * the marker ends and reports the marker's end too.
   *
   * @return false if nothing was enqueued: the marker is released, or its queue is lost (the engine
   *     parks the stream on the record instead)
   */
  static boolean enqueueWait(ClQueue queue, boolean reports, ClMarker marker, Completion done) {
    try {
      Runnable rest =
          marker.enqueueWait(
              reports, event -> queue.enqueue(new ClBarrier(marker, event, reports), done));
      if (rest == null) {
        return false;
      }
      rest.run(); // outside the marker's monitor: it may lock other markers
      return true;
    } catch (OpenClException e) {
      return false;
    }
  }

  @Override
  public int enqueue(long queue, long eventAddress) {
    return enqueueOn(queue, markerEvent, eventAddress);
  }

  /**
   * Enqueues on {@code queue} a barrier that waits for {@code event}, storing its own event at
   * {@code eventAddress} (none when 0).
   *
   * @return the OpenCL error code, 0 on success
   */
  static int enqueueOn(long queue, long event, long eventAddress) {
    try (MemoryStack stack = MemoryStack.stackPush()) {
      return nclEnqueueBarrierWithWaitList(queue, 1, stack.pointers(event).address(), eventAddress);
    }
  }

  @Override
  public String name() {
    return null;
  }

  @Override
  public void enqueued() {}

  @Override
  public void ended(boolean completed) {
    if (completed) {
      marker.endedBefore();
    } else {
      handBack();
    }
  }

  /**
   * Leaves the report of the marker to the marker's queue: this barrier failed, or work that is not
   * a marker follows it on its queue, so its own end may be reported late. Once only.
   */
  void handBack() {
    if (handedBack.compareAndSet(false, true)) {
      marker.notReported();
    }
  }

  @Override
  public String toString() {
    return "clEnqueueBarrierWithWaitList";
  }
}
