package dev.openaccel.benchmarks.opencl;

import static org.lwjgl.opencl.CL10.clReleaseEvent;
import static org.lwjgl.opencl.CL10.clWaitForEvents;
import static org.lwjgl.opencl.CL12.clEnqueueBarrierWithWaitList;
import static org.lwjgl.opencl.CL12.clEnqueueMarkerWithWaitList;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.Stream;
import java.util.concurrent.TimeUnit;
import org.lwjgl.PointerBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Record + block across two streams of one device, as seen from the host: stream A records, stream
 * B blocks on that record and records in turn, the host waits for B's record. The baseline does the
 * same on two raw queues: a marker on A, a barrier on B waiting for it, a marker on B, {@code
 * clWaitForEvents}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class EventHop {
  private Accelerator accelerator;
  private Stream a;
  private Stream b;
  private Event first;
  private Event second;
  private RawOpenCl raw;
  private long queueA;
  private long queueB;
  private final PointerBuffer event = PointerBuffer.allocateDirect(1);
  private final PointerBuffer waitList = PointerBuffer.allocateDirect(1);

  @Setup
  public void setUp() {
    accelerator = OpenClBench.start();
    a = accelerator.newStream(OpenClBench.device(0));
    b = accelerator.newStream(OpenClBench.device(0));
    first = accelerator.newEvent();
    second = accelerator.newEvent();
    raw = new RawOpenCl();
    queueA = raw.newQueue();
    queueB = raw.newQueue();
  }

  @TearDown
  public void tearDown() {
    RawOpenCl.releaseQueue(queueA);
    RawOpenCl.releaseQueue(queueB);
    raw.close();
    accelerator.close();
  }

  @Benchmark
  public Event recordBlockRecord() {
    first.record(a);
    first.block(b);
    second.record(b);
    second.synchronize();
    return second;
  }

  @Benchmark
  public long rawMarkerBarrierMarker() {
    RawOpenCl.check(clEnqueueMarkerWithWaitList(queueA, null, event), "marker A");
    long onA = event.get(0);
    waitList.put(0, onA);
    RawOpenCl.check(clEnqueueBarrierWithWaitList(queueB, waitList, null), "barrier B");
    RawOpenCl.check(clEnqueueMarkerWithWaitList(queueB, null, event), "marker B");
    long onB = event.get(0);
    RawOpenCl.check(clWaitForEvents(event), "clWaitForEvents");
    clReleaseEvent(onA);
    clReleaseEvent(onB);
    return onB;
  }
}
