package dev.openaccel.opencl;

import static org.lwjgl.opencl.CL10.CL_QUEUE_PROFILING_ENABLE;
import static org.lwjgl.opencl.CL10.clCreateCommandQueue;
import static org.lwjgl.opencl.CL10.clEnqueueCopyBuffer;
import static org.lwjgl.opencl.CL10.clEnqueueReadBuffer;
import static org.lwjgl.opencl.CL10.clEnqueueWriteBuffer;
import static org.lwjgl.opencl.CL10.clFinish;
import static org.lwjgl.opencl.CL10.clFlush;
import static org.lwjgl.opencl.CL10.clReleaseCommandQueue;
import static org.lwjgl.opencl.CL12.clEnqueueBarrierWithWaitList;
import static org.lwjgl.opencl.CL12.clEnqueueMarkerWithWaitList;

import dev.openaccel.runtime.DeviceBuffer;
import java.nio.ByteBuffer;
import java.util.function.ToLongFunction;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;

/**
 * One stream's in-order {@code cl_command_queue}: kernels, copies, markers and barriers, each
 * reported to a {@link ClCompletion} from its event's callback.
 *
 * <p>Confined to its stream: one thread at a time enqueues (the stream's actor); completions arrive
 * on OpenCL threads. Owns: the queue handle, released by {@link #close()} after the queue drained.
 */
final class ClQueue implements AutoCloseable {
  private final ClContext context;
  private final int deviceIndex;
  private final long queue;
  private final PointerBuffer event = PointerBuffer.allocateDirect(1);
  private final PointerBuffer waitList = PointerBuffer.allocateDirect(1);

  ClQueue(ClContext context, int deviceIndex, boolean profiling) {
    this.context = context;
    this.deviceIndex = deviceIndex;
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

  int deviceIndex() {
    return deviceIndex;
  }

  ClContext context() {
    return context;
  }

  /**
   * Enqueues {@code work}, its buffers resolved by {@code memory}; {@code done} hears when it ends.
   */
  void submit(ClWork work, ToLongFunction<DeviceBuffer> memory, ClCompletion done) {
    int rc;
    try {
      rc = work.enqueue(queue, event, memory);
    } catch (RuntimeException e) {
      done.fail(e);
      return;
    }
    enqueued(rc, work.toString(), done);
  }

  /** Enqueues a marker: the event of a record, completed with the device time it was reached. */
  ClMarker mark(ClCompletion done) {
    ClErrors.check(clEnqueueMarkerWithWaitList(queue, null, event), "clEnqueueMarkerWithWaitList");
    ClMarker marker = new ClMarker(context, event.get(0));
    watch((ev, status, end) -> marker.ended(done, status, end), done);
    return marker;
  }

  /**
   * Makes later work on this queue wait for {@code marker} on the device; false when the marker
   * belongs to another context (the caller then waits on the host side).
   */
  boolean waitFor(ClMarker marker) {
    if (marker.context() != context) {
      return false;
    }
    marker.enqueueWait(this);
    return true;
  }

  void barrier(long onEvent) {
    waitList.put(0, onEvent);
    ClErrors.check(
        clEnqueueBarrierWithWaitList(queue, waitList, null), "clEnqueueBarrierWithWaitList");
  }

  /**
   * Non-blocking write of {@code src}'s remaining bytes; {@code src} must stay alive until done.
   */
  void write(ByteBuffer src, long dst, long offset, ClCompletion done) {
    int rc = clEnqueueWriteBuffer(queue, dst, false, offset, src, null, event);
    enqueued(rc, "clEnqueueWriteBuffer", done);
  }

  /**
   * Non-blocking read into {@code dst}'s remaining bytes; {@code dst} must stay alive until done.
   */
  void read(long src, long offset, ByteBuffer dst, ClCompletion done) {
    int rc = clEnqueueReadBuffer(queue, src, false, offset, dst, null, event);
    enqueued(rc, "clEnqueueReadBuffer", done);
  }

  void copy(long src, long dst, long bytes, ClCompletion done) {
    int rc = clEnqueueCopyBuffer(queue, src, dst, 0, 0, bytes, null, event);
    enqueued(rc, "clEnqueueCopyBuffer", done);
  }

  /** Starts the enqueued commands without waiting for them. */
  void flush() {
    ClErrors.check(clFlush(queue), "clFlush");
  }

  /** Waits for the queue to drain, then releases it. Idempotence is the owner's job. */
  @Override
  public void close() {
    clFinish(queue);
    clReleaseCommandQueue(queue);
  }

  private void enqueued(int rc, String call, ClCompletion done) {
    if (rc != 0) {
      done.fail(new OpenClException(call, rc));
      return;
    }
    watch(ClCallbacks.releasing(done, call), done);
  }

  private void watch(ClCallbacks.Watcher watcher, ClCompletion done) {
    try {
      ClCallbacks.watch(event.get(0), watcher);
    } catch (OpenClException e) {
      done.fail(e);
    }
  }
}
