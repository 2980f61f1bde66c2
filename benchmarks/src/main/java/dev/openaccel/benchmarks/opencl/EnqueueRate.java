package dev.openaccel.benchmarks.opencl;

import static org.lwjgl.opencl.CL10.clEnqueueNDRangeKernel;
import static org.lwjgl.opencl.CL10.clFinish;
import static org.lwjgl.opencl.CL10.clReleaseEvent;
import static org.lwjgl.opencl.CL10.clSetKernelArg1i;

import dev.openaccel.opencl.DeviceKernel;
import dev.openaccel.opencl.LaunchShape;
import dev.openaccel.opencl.OpenCl;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Stream;
import java.util.concurrent.TimeUnit;
import org.lwjgl.PointerBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Empty device kernels through one stream, in batches of {@value #BATCH} then a synchronize; the
 * baseline enqueues the same kernel on a raw in-order queue the same way, then {@code clFinish}. A
 * second baseline asks for (and releases) an event per kernel, what tracking each kernel's end
 * would cost: on NVIDIA's platform (H100) that halved the raw rate.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class EnqueueRate {
  static final int BATCH = 200;
  private static final LaunchShape ONE = LaunchShape.of(1);

  private Accelerator accelerator;
  private Stream stream;
  private DeviceKernel empty;
  private RawOpenCl raw;
  private long queue;
  private long rawKernel;
  private final PointerBuffer global = PointerBuffer.allocateDirect(1).put(0, 1);
  private final PointerBuffer event = PointerBuffer.allocateDirect(1);

  @Setup
  public void setUp() {
    accelerator = OpenClBench.start();
    stream = accelerator.newStream(OpenClBench.device(0));
    empty = OpenCl.get(accelerator).compile(OpenClBench.EMPTY).kernel("empty");
    raw = new RawOpenCl();
    queue = raw.newQueue();
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
  @OperationsPerInvocation(BATCH)
  public void streamLaunch() {
    for (int i = 0; i < BATCH; i++) {
      empty.launch(stream, ONE, 0);
    }
    stream.synchronize();
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public void rawEnqueue() {
    rawBatch(null);
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public void rawEnqueueEventEach() {
    rawBatch(event);
  }

  /** A batch of raw enqueues, each asking for its event into {@code events} (then released). */
  private void rawBatch(PointerBuffer events) {
    for (int i = 0; i < BATCH; i++) {
      RawOpenCl.check(
          clEnqueueNDRangeKernel(queue, rawKernel, 1, null, global, null, null, events),
          "clEnqueueNDRangeKernel");
      if (events != null) {
        clReleaseEvent(events.get(0));
      }
    }
    RawOpenCl.check(clFinish(queue), "clFinish");
  }
}
