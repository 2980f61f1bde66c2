package dev.openaccel.opencl;

import static org.lwjgl.opencl.CL10.clReleaseEvent;

/**
 * A marker enqueued on a {@link ClQueue}: the {@code cl_event} of an event record, which other
 * queues of the same context can wait for on the device.
 *
 * <p>Owns: its {@code cl_event} until the event completes; the completion callback releases it
 * under this object's monitor, and {@link #enqueueWait} uses it only under the same monitor while
 * it is not yet released, so a barrier never names a released (stale) event.
 */
final class ClMarker {
  private final ClContext context;
  private final long event;
  private boolean released;

  ClMarker(ClContext context, long event) {
    this.context = context;
    this.event = event;
  }

  ClContext context() {
    return context;
  }

  /** Called once by the completion callback: reports, then releases the event. */
  void ended(ClCompletion done, int status, long endNanos) {
    synchronized (this) {
      released = true;
      clReleaseEvent(event);
    }
    ClCallbacks.report(done, "marker", status, endNanos);
  }

  /**
   * Makes {@code queue} wait on the device for this marker: a barrier on its event, or nothing when
   * it already completed.
   */
  synchronized void enqueueWait(ClQueue queue) {
    if (!released) {
      queue.barrier(event);
    }
  }
}
