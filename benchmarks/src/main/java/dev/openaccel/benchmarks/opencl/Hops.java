package dev.openaccel.benchmarks.opencl;

import static org.lwjgl.opencl.CL10.CL_COMPLETE;
import static org.lwjgl.opencl.CL10.CL_MEM_READ_WRITE;
import static org.lwjgl.opencl.CL10.CL_PROFILING_COMMAND_END;
import static org.lwjgl.opencl.CL10.clCreateBuffer;
import static org.lwjgl.opencl.CL10.clEnqueueNDRangeKernel;
import static org.lwjgl.opencl.CL10.clFlush;
import static org.lwjgl.opencl.CL10.clGetEventProfilingInfo;
import static org.lwjgl.opencl.CL10.clReleaseEvent;
import static org.lwjgl.opencl.CL10.clReleaseMemObject;
import static org.lwjgl.opencl.CL10.clSetKernelArg1i;
import static org.lwjgl.opencl.CL10.clSetKernelArg1p;
import static org.lwjgl.opencl.CL10.clWaitForEvents;
import static org.lwjgl.opencl.CL11.nclSetEventCallback;
import static org.lwjgl.opencl.CL12.clEnqueueBarrierWithWaitList;
import static org.lwjgl.opencl.CL12.clEnqueueMarkerWithWaitList;

import dev.openaccel.opencl.DeviceKernel;
import dev.openaccel.opencl.LaunchShape;
import dev.openaccel.opencl.OpenCl;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.Stream;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.lwjgl.BufferUtils;
import org.lwjgl.PointerBuffer;
import org.lwjgl.opencl.CLEventCallback;

/**
 * One record + block hop across two streams of one device, ours and raw: stream A runs a short
 * kernel and records, stream B waits for that record and records in turn, the host waits for B's
 * record. Each {@code hopNanos()} is the hop on the device clock: B's record end minus A's.
 */
final class Hops {
  /** About 0.3 ms of work on A, so that B's wait is in place before A's record. */
  static final String SPIN =
      "__kernel void spin(int n, __global float* out) {"
          + " float x = 0; for (int i = 0; i < n; i++) x = x * 0.5f + 1.0f; out[0] = x; }";

  static final int SPINS = 200_000;

  private Hops() {}

  /** Ours: a device kernel, {@code record}, {@code block}, {@code record}, {@code synchronize}. */
  static final class Ours implements AutoCloseable {
    private final Stream a;
    private final Stream b;
    private final Event first;
    private final Event second;
    private final DeviceKernel spin;
    private final DeviceBuffer out;

    Ours(Accelerator accelerator) {
      a = accelerator.newStream(OpenClBench.device(0));
      b = accelerator.newStream(OpenClBench.device(0));
      first = accelerator.newEvent(EventOptions.timing());
      second = accelerator.newEvent(EventOptions.timing());
      spin = OpenCl.get(accelerator).compile(SPIN).kernel("spin");
      out = accelerator.allocate(OpenClBench.device(0), 4);
    }

    double hopNanos() {
      spin.launch(a, LaunchShape.of(1), SPINS, out);
      first.record(a);
      first.block(b);
      second.record(b);
      second.synchronize();
      return first.elapsedTime(second) * 1e6;
    }

    @Override
    public void close() {
      first.close();
      second.close();
      out.close();
    }
  }

  /**
   * Raw LWJGL: the kernel and a marker on A, {@code clFlush} of A, a barrier on B waiting for it, a
   * marker on B, {@code clWaitForEvents}; optionally a completion callback on A's marker that
   * completes a future, what any runtime reporting the record's completion pays.
   */
  static final class Raw implements AutoCloseable {
    private static final AtomicReference<CompletableFuture<Void>> REPORTED =
        new AtomicReference<>();
    private static final CLEventCallback CALLBACK =
        CLEventCallback.create((ev, status, data) -> REPORTED.get().complete(null));

    private final RawOpenCl raw = new RawOpenCl();
    private final long queueA = raw.newQueue();
    private final long queueB = raw.newQueue();
    private final long spin = raw.kernel(SPIN, "", "spin");
    private final long out = clCreateBuffer(raw.context, CL_MEM_READ_WRITE, 4, (IntBuffer) null);
    private final PointerBuffer one = PointerBuffer.allocateDirect(1).put(0, 1);
    private final PointerBuffer event = PointerBuffer.allocateDirect(1);
    private final PointerBuffer waitList = PointerBuffer.allocateDirect(1);
    private final LongBuffer end = BufferUtils.createLongBuffer(1);

    Raw() {
      clSetKernelArg1i(spin, 0, SPINS);
      clSetKernelArg1p(spin, 1, out);
    }

    long hopNanos(boolean callback) {
      RawOpenCl.check(clEnqueueNDRangeKernel(queueA, spin, 1, null, one, null, null, null), "spin");
      RawOpenCl.check(clEnqueueMarkerWithWaitList(queueA, null, event), "marker A");
      long onA = event.get(0);
      CompletableFuture<Void> reported = new CompletableFuture<>();
      if (callback) {
        REPORTED.set(reported);
        RawOpenCl.check(
            nclSetEventCallback(onA, CL_COMPLETE, CALLBACK.address(), 0L), "clSetEventCallback");
      }
      RawOpenCl.check(clFlush(queueA), "clFlush A"); // OpenCL requires it before B waits on A
      waitList.put(0, onA);
      RawOpenCl.check(clEnqueueBarrierWithWaitList(queueB, waitList, null), "barrier B");
      RawOpenCl.check(clEnqueueMarkerWithWaitList(queueB, null, event), "marker B");
      long onB = event.get(0);
      RawOpenCl.check(clWaitForEvents(event), "clWaitForEvents");
      RawOpenCl.check(clGetEventProfilingInfo(onA, CL_PROFILING_COMMAND_END, end, null), "end A");
      long endA = end.get(0);
      RawOpenCl.check(clGetEventProfilingInfo(onB, CL_PROFILING_COMMAND_END, end, null), "end B");
      if (callback) {
        reported.join(); // the callback ran before A's marker ended, so this returns at once
      }
      clReleaseEvent(onA);
      clReleaseEvent(onB);
      return end.get(0) - endA;
    }

    @Override
    public void close() {
      clReleaseMemObject(out);
      RawOpenCl.releaseQueue(queueA);
      RawOpenCl.releaseQueue(queueB);
      raw.close();
    }
  }
}
