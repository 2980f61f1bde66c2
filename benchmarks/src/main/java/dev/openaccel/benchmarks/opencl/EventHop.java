package dev.openaccel.benchmarks.opencl;

import dev.openaccel.runtime.Accelerator;
import java.util.concurrent.TimeUnit;
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
  /** Number of hops measured in this iteration. */
  public long samples;

  /** Sum of the hops on the device clock, in ns. */
  public double deviceHopNanosSum;

  private Accelerator accelerator;
  private Hops.Ours ours;
  private Hops.Raw raw;

  @Setup
  public void setUp() {
    accelerator = OpenClBench.start();
    ours = new Hops.Ours(accelerator);
    raw = new Hops.Raw();
  }

  @TearDown
  public void tearDown() {
    raw.close();
    ours.close();
    accelerator.close();
  }

  @Benchmark
  public void recordBlockRecord() {
    count(ours.hopNanos());
  }

  @Benchmark
  public void rawMarkerBarrierMarker() {
    count(raw.hopNanos(false));
  }

  @Benchmark
  public void rawMarkerCallbackBarrierMarker() {
    count(raw.hopNanos(true));
  }

  private void count(double hopNanos) {
    samples++;
    deviceHopNanosSum += hopNanos;
  }
}
