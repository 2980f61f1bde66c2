package dev.openaccel.opencl;

import static org.lwjgl.opencl.CL12.nclEnqueueBarrierWithWaitList;

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
