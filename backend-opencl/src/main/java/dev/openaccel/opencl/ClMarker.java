package dev.openaccel.opencl;

import static org.lwjgl.opencl.CL10.clReleaseEvent;

import dev.openaccel.runtime.spi.Marker;
import java.util.function.LongConsumer;

/**
 * A marker enqueued on a {@link ClQueue}: the {@code cl_event} of an event record, which other
 * queues of the same context wait for on the device with a barrier.
 *
 * <p>Owns: its {@code cl_event} until {@link #release()} (the engine calls it once the record
 * completed and no new wait will be started on it). A barrier names the event only under this
 * object's monitor while it is not released, so no barrier ever names a released (stale) event.
 */
final class ClMarker implements Marker {
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

  /**
   * Hands this marker's event to {@code barrier}, which enqueues a wait for it, while the event is
   * sure to be live.
   *
   * @return false if the marker is already released (nothing is enqueued)
   */
  synchronized boolean enqueueWait(LongConsumer barrier) {
    if (released) {
      return false;
    }
    barrier.accept(event);
    return true;
  }

  @Override
  public synchronized void release() {
    if (!released) {
      released = true;
      clReleaseEvent(event);
    }
  }
}
