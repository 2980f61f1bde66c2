package dev.openaccel.opencl;

import static org.lwjgl.opencl.CL10.CL_QUEUE_PROFILING_ENABLE;
import static org.lwjgl.opencl.CL10.clCreateCommandQueue;
import static org.lwjgl.opencl.CL10.clReleaseCommandQueue;
import static org.lwjgl.opencl.CL10.clReleaseEvent;
import static org.lwjgl.opencl.CL12.clEnqueueBarrierWithWaitList;
import static org.lwjgl.opencl.CL12.clEnqueueMarkerWithWaitList;

import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.Completion;
import dev.openaccel.runtime.spi.DeviceQueue;
import dev.openaccel.runtime.spi.DeviceWork;
import dev.openaccel.runtime.spi.Marker;
import dev.openaccel.runtime.trace.TraceEvent;
import dev.openaccel.runtime.trace.Tracer;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;

/**
 * One stream's in-order {@code cl_command_queue}, as the engine's {@link DeviceQueue}: kernels and
 * copies ({@link ClWork}), markers for event records, and barriers for device-side waits, each
 * reported to its {@link Completion} from its event's callback.
 *
 * <p>Confined to its stream's actor (one thread at a time submits); completions arrive on OpenCL
 * threads. Owns: the queue handle, released by {@link #close()}.
 */
final class ClQueue implements DeviceQueue, AutoCloseable {
  private final ClContext context;
  private final Stream stream;
  private final Tracer tracer;
  private final long queue;
  private final PointerBuffer event = PointerBuffer.allocateDirect(1);
  private final PointerBuffer waitList = PointerBuffer.allocateDirect(1);

  /** A queue on device {@code deviceIndex} that traces nothing (map queues, tests). */
  ClQueue(ClContext context, int deviceIndex, boolean profiling) {
    this(context, deviceIndex, profiling, null, null);
  }

  /** The queue of {@code stream}, whose device commands {@code tracer} sees when enabled. */
  ClQueue(ClContext context, Stream stream, boolean profiling, Tracer tracer) {
    this(context, stream.deviceIndex(), profiling, stream, tracer);
  }

  private ClQueue(
      ClContext context, int deviceIndex, boolean profiling, Stream stream, Tracer tracer) {
    this.context = context;
    this.stream = stream;
    this.tracer = tracer;
    try (MemoryStack stack = MemoryStack.stackPush()) {
      var rc = stack.mallocInt(1);
      this.queue =
          clCreateCommandQueue(
              context.handle(),
              context.device(deviceIndex).id(),
              profiling ? CL_QUEUE_PROFILING_ENABLE : 0,
              rc);
      ClErrors.check(rc.get(0), "clCreateCommandQueue(device " + deviceIndex + ")");
    }
  }

  long handle() {
    return queue;
  }

  @Override
  public void submit(DeviceWork work, Completion done) {
    if (!(work instanceof ClWork command)) {
      throw new IllegalArgumentException(work + " is not OpenCL work");
    }
    int rc;
    try {
      rc = command.enqueue(queue, event);
    } finally {
      command.enqueued();
    }
    if (rc != 0) {
      done.fail(new OpenClException(command.toString(), rc));
      return;
    }
    ClCallbacks.Watcher watcher = ClCallbacks.releasing(command, done);
    watch(tracer != null && tracer.enabled() ? traced(command.name(), watcher) : watcher, done);
  }

  /**
   * Publishes the command as a kernel span when it ends: {@link System#nanoTime()} at the callback
   * as its end, minus its device duration as its start (the device clock may differ from the
   * host's, its durations do not).
   */
  private ClCallbacks.Watcher traced(String name, ClCallbacks.Watcher watcher) {
    return (event, status, end) -> {
      long finished = System.nanoTime();
      long started = finished - ClCallbacks.durationNanos(event);
      tracer.publish(new TraceEvent.KernelStarted(stream.device(), stream.id(), name, started));
      tracer.publish(
          new TraceEvent.KernelFinished(stream.device(), stream.id(), name, status < 0, finished));
      watcher.ended(event, status, end);
    };
  }

  @Override
  public Marker mark(Completion done) {
    int rc = clEnqueueMarkerWithWaitList(queue, null, event);
    if (rc != 0) {
      done.fail(new OpenClException("clEnqueueMarkerWithWaitList", rc));
      return null;
    }
    ClMarker marker = new ClMarker(context, event.get(0));
    watch((ev, status, end) -> ClCallbacks.report(done, "marker", status, end), done);
    return marker;
  }

  /**
   * Makes later work on this queue wait on the device for {@code marker}: false (nothing enqueued)
   * for a marker of another context or one already released.
   */
  @Override
  public boolean waitFor(Marker marker, Completion done) {
    if (!(marker instanceof ClMarker m) || m.context() != context) {
      return false;
    }
    try {
      if (!m.enqueueWait(this)) {
        return false;
      }
    } catch (OpenClException e) {
      return false; // the engine parks the stream on the record instead
    }
    watch(
        (ev, status, end) -> {
          clReleaseEvent(ev);
          ClCallbacks.report(done, "barrier", status, end);
        },
        done);
    return true;
  }

  /** Enqueues a barrier on {@code onEvent}; its event goes to {@link #event}. */
  void barrier(long onEvent) {
    waitList.put(0, onEvent);
    ClErrors.check(
        clEnqueueBarrierWithWaitList(queue, waitList, event), "clEnqueueBarrierWithWaitList");
  }

  @Override
  public void close() {
    clReleaseCommandQueue(queue);
  }

  private void watch(ClCallbacks.Watcher watcher, Completion done) {
    try {
      ClCallbacks.watch(event.get(0), watcher);
    } catch (OpenClException e) {
      done.fail(e);
    }
  }
}
