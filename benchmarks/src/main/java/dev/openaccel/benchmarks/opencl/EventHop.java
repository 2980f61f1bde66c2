package dev.openaccel.benchmarks.opencl;

import static org.lwjgl.opencl.CL10.CL_COMPLETE;
import static org.lwjgl.opencl.CL10.CL_MEM_READ_WRITE;
import static org.lwjgl.opencl.CL10.CL_PROFILING_COMMAND_END;
import static org.lwjgl.opencl.CL10.clCreateBuffer;
import static org.lwjgl.opencl.CL10.clEnqueueNDRangeKernel;
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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.lwjgl.BufferUtils;
import org.lwjgl.PointerBuffer;
import org.lwjgl.opencl.CLEventCallback;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Record + block across two streams of one device: stream A runs a short kernel and records, stream
 * B blocks on that record and records in turn, the host waits for B's record. The baseline does the
 * same on two raw queues: the kernel and a marker on A, a barrier on B waiting for it, a marker on
 * B, {@code clWaitForEvents}. The score is the host round trip; the counters {@code
 * deviceHopNanosSum} / {@code samples} are the hop on the device clock: B's record minus A's
 * ({@code elapsedTime} of two timing events; the markers' {@code CL_PROFILING_COMMAND_END} for the
 * baseline). A second baseline adds what any runtime that reports a record's completion pays: a
 * {@code clSetEventCallback} on A's marker that completes a future, as {@code completion()} is
 * completed (PoCL runs a callback on the thread that ends the marker, before B's barrier is
 * released).
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class EventHop {
  private static final LaunchShape ONE = LaunchShape.of(1);

  /** About a hundred microseconds of work on A, so that B's wait is in place before A's record. */
  static final String SPIN =
      "__kernel void spin(int n, __global float* out) {"
          + " float x = 0; for (int i = 0; i < n; i++) x = x * 0.5f + 1.0f; out[0] = x; }";

  static final int SPINS = 200_000;

  private static final AtomicReference<CompletableFuture<Void>> REPORTED = new AtomicReference<>();
  private static final CLEventCallback CALLBACK =
      CLEventCallback.create((ev, status, data) -> REPORTED.get().complete(null));

  /** Number of hops measured in this iteration. */
  public long samples;

  /** Sum of the hops on the device clock, in ns. */
  public double deviceHopNanosSum;

  private Accelerator accelerator;
  private Stream a;
  private Stream b;
  private Event first;
  private Event second;
  private RawOpenCl raw;
  private long queueA;
  private long queueB;
  private DeviceKernel spin;
  private DeviceBuffer out;
  private long rawSpin;
  private long rawOut;
  private final PointerBuffer one = PointerBuffer.allocateDirect(1).put(0, 1);
  private final PointerBuffer event = PointerBuffer.allocateDirect(1);
  private final PointerBuffer waitList = PointerBuffer.allocateDirect(1);
  private final LongBuffer end = BufferUtils.createLongBuffer(1);

  @Setup
  public void setUp() {
    accelerator = OpenClBench.start();
    a = accelerator.newStream(OpenClBench.device(0));
    b = accelerator.newStream(OpenClBench.device(0));
    first = accelerator.newEvent(EventOptions.timing());
    second = accelerator.newEvent(EventOptions.timing());
    spin = OpenCl.get(accelerator).compile(SPIN).kernel("spin");
    out = accelerator.allocate(OpenClBench.device(0), 4);
    raw = new RawOpenCl();
    queueA = raw.newQueue();
    queueB = raw.newQueue();
    rawSpin = raw.kernel(SPIN, "", "spin");
    rawOut = clCreateBuffer(raw.context, CL_MEM_READ_WRITE, 4, (IntBuffer) null);
    clSetKernelArg1i(rawSpin, 0, SPINS);
    clSetKernelArg1p(rawSpin, 1, rawOut);
  }

  @TearDown
  public void tearDown() {
    clReleaseMemObject(rawOut);
    out.close();
    RawOpenCl.releaseQueue(queueA);
    RawOpenCl.releaseQueue(queueB);
    raw.close();
    accelerator.close();
  }

  @Benchmark
  public void recordBlockRecord() {
    spin.launch(a, ONE, SPINS, out);
    first.record(a);
    first.block(b);
    second.record(b);
    second.synchronize();
    samples++;
    deviceHopNanosSum += first.elapsedTime(second) * 1e6;
  }

  @Benchmark
  public void rawMarkerBarrierMarker() {
    rawHop(false);
  }

  @Benchmark
  public void rawMarkerCallbackBarrierMarker() {
    rawHop(true);
  }

  private void rawHop(boolean callback) {
    RawOpenCl.check(
        clEnqueueNDRangeKernel(queueA, rawSpin, 1, null, one, null, null, null), "spin");
    RawOpenCl.check(clEnqueueMarkerWithWaitList(queueA, null, event), "marker A");
    long onA = event.get(0);
    CompletableFuture<Void> reported = new CompletableFuture<>();
    if (callback) {
      REPORTED.set(reported);
      RawOpenCl.check(
          nclSetEventCallback(onA, CL_COMPLETE, CALLBACK.address(), 0L), "clSetEventCallback");
    }
    waitList.put(0, onA);
    RawOpenCl.check(clEnqueueBarrierWithWaitList(queueB, waitList, null), "barrier B");
    RawOpenCl.check(clEnqueueMarkerWithWaitList(queueB, null, event), "marker B");
    long onB = event.get(0);
    RawOpenCl.check(clWaitForEvents(event), "clWaitForEvents");
    RawOpenCl.check(clGetEventProfilingInfo(onA, CL_PROFILING_COMMAND_END, end, null), "end A");
    long endA = end.get(0);
    RawOpenCl.check(clGetEventProfilingInfo(onB, CL_PROFILING_COMMAND_END, end, null), "end B");
    samples++;
    deviceHopNanosSum += end.get(0) - endA;
    if (callback) {
      reported.join(); // the callback ran before A's marker ended, so this returns at once
    }
    clReleaseEvent(onA);
    clReleaseEvent(onB);
  }
}
