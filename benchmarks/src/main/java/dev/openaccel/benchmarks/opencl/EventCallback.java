package dev.openaccel.benchmarks.opencl;

import static org.lwjgl.opencl.CL10.CL_COMPLETE;
import static org.lwjgl.opencl.CL10.clEnqueueNDRangeKernel;
import static org.lwjgl.opencl.CL10.clFlush;
import static org.lwjgl.opencl.CL10.clReleaseEvent;
import static org.lwjgl.opencl.CL10.clSetKernelArg1i;
import static org.lwjgl.opencl.CL11.nclSetEventCallback;
import static org.lwjgl.opencl.CL12.clEnqueueMarkerWithWaitList;

import dev.openaccel.opencl.DeviceKernel;
import dev.openaccel.opencl.LaunchShape;
import dev.openaccel.opencl.OpenCl;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.Stream;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.lwjgl.PointerBuffer;
import org.lwjgl.opencl.CLEventCallback;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Event completion delivered to the host without polling: record on a stream, then join the event's
 * {@code completion()} stage. The baseline enqueues a marker on a raw queue, flushes it and
 * completes a future from its {@code clSetEventCallback}. On an idle stream, whose earlier work has
 * all ended, the record completes where it is made ({@code recordThenCompletion}); behind an empty
 * device kernel it completes when the device reports the kernel's end ({@code
 * kernelRecordThenCompletion}, against the same kernel, a marker and its callback on a raw queue).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class EventCallback {
  private static final LaunchShape ONE = LaunchShape.of(1);
  private static final AtomicReference<CompletableFuture<Void>> PENDING = new AtomicReference<>();
  private static final CLEventCallback CALLBACK =
      CLEventCallback.create(
          (event, status, data) -> {
            clReleaseEvent(event);
            PENDING.get().complete(null);
          });

  private Accelerator accelerator;
  private Stream stream;
  private Event event;
  private RawOpenCl raw;
  private long queue;
  private DeviceKernel empty;
  private long rawKernel;
  private final PointerBuffer marker = PointerBuffer.allocateDirect(1);
  private final PointerBuffer one = PointerBuffer.allocateDirect(1).put(0, 1);

  @Setup
  public void setUp() {
    accelerator = OpenClBench.start();
    stream = accelerator.newStream(OpenClBench.device(0));
    event = accelerator.newEvent();
    raw = new RawOpenCl();
    queue = raw.newQueue();
    empty = OpenCl.get(accelerator).compile(OpenClBench.EMPTY).kernel("empty");
    rawKernel = raw.kernel(OpenClBench.EMPTY, "", "empty");
    clSetKernelArg1i(rawKernel, 0, 0);
  }

  @TearDown
  public void tearDown() {
    RawOpenCl.releaseQueue(queue);
    raw.close();
    accelerator.close();
  }

  @Benchmark
  public Object recordThenCompletion() {
    event.record(stream);
    return event.completion().toCompletableFuture().join();
  }

  @Benchmark
  public Object kernelRecordThenCompletion() {
    empty.launch(stream, ONE, 0);
    return recordThenCompletion();
  }

  @Benchmark
  public Object rawKernelMarkerCallback() {
    RawOpenCl.check(clEnqueueNDRangeKernel(queue, rawKernel, 1, null, one, null, null, null), "k");
    return rawMarkerCallback();
  }

  @Benchmark
  public Object rawMarkerCallback() {
    CompletableFuture<Void> done = new CompletableFuture<>();
    PENDING.set(done);
    RawOpenCl.check(clEnqueueMarkerWithWaitList(queue, null, marker), "marker");
    RawOpenCl.check(
        nclSetEventCallback(marker.get(0), CL_COMPLETE, CALLBACK.address(), 0),
        "clSetEventCallback");
    RawOpenCl.check(clFlush(queue), "clFlush"); // sends the marker to the device
    return done.join();
  }
}
