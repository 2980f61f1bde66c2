package dev.openaccel.benchmarks.timing;

import dev.openaccel.benchmarks.support.OpenReg;
import dev.openaccel.benchmarks.support.Spin;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.Stream;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
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
 * How well {@code elapsedTime} measures a kernel that busy-spins for exactly 1 ms between two
 * timing events, next to a baseline that takes the two timestamps itself, with {@code
 * System.nanoTime()} tasks queued around the same kernel on a single-thread executor.
 *
 * <p>Each invocation measures once with each, in turns (which goes first alternates), so that both
 * see the same load: the errors are made by a few samples a scheduler tick long, and measuring the
 * two one after the other (a second of each) compared the luck of two seconds more than the timers.
 * Each adds to counters JMH reports per iteration (and zeroes before each), in nanoseconds: the
 * error against 1 ms, and the error against the kernel's own clock (its first and last {@code
 * nanoTime()}). The first is what the user sees; the second leaves out the time the kernel itself
 * overran 1 ms because its thread was descheduled mid-spin, which no timer can tell from work.
 * Counters of the baseline start with {@code baseline}.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ElapsedTimeAccuracy {
  static final long KERNEL_NANOS = 1_000_000;

  /** Number of measurements of this iteration, with each of the two. */
  public long samples;

  /** Sum of |measured - 1 ms| over this iteration. */
  public double errorNanosSum;

  /** Largest |measured - 1 ms| of this iteration. */
  public double errorNanosMax;

  /** Sum of |measured - the kernel's own duration| over this iteration. */
  public double kernelClockErrorNanosSum;

  /** Largest |measured - the kernel's own duration| of this iteration. */
  public double kernelClockErrorNanosMax;

  /** The baseline's {@link #errorNanosSum}. */
  public double baselineErrorNanosSum;

  /** The baseline's {@link #errorNanosMax}. */
  public double baselineErrorNanosMax;

  /** The baseline's {@link #kernelClockErrorNanosSum}. */
  public double baselineKernelClockErrorNanosSum;

  /** The baseline's {@link #kernelClockErrorNanosMax}. */
  public double baselineKernelClockErrorNanosMax;

  private Accelerator accelerator;
  private Stream stream;
  private Event start;
  private Event end;
  private ExecutorService executor;
  private boolean baselineFirst;
  private volatile long startedAt;
  private volatile long endedAt;
  private volatile long kernelStart;
  private volatile long kernelEnd;

  @Setup
  public void setUp() {
    accelerator = OpenReg.start();
    stream = accelerator.newStream(OpenReg.device(0));
    start = accelerator.newEvent(EventOptions.timing());
    end = accelerator.newEvent(EventOptions.timing());
    executor = Executors.newSingleThreadExecutor();
  }

  @TearDown
  public void tearDown() {
    executor.shutdownNow();
    start.close();
    end.close();
    accelerator.close();
  }

  @Benchmark
  public void eventElapsedTimeAndNanoTimeAroundTask()
      throws InterruptedException, ExecutionException {
    baselineFirst = !baselineFirst;
    if (baselineFirst) {
      nanoTimeAroundTask();
      eventElapsedTime();
    } else {
      eventElapsedTime();
      nanoTimeAroundTask();
    }
    samples++;
  }

  private void eventElapsedTime() {
    start.record(stream);
    stream.launch("spin-1ms", this::kernel);
    end.record(stream);
    end.synchronize();
    count(start.elapsedTime(end) * 1_000_000.0, false);
  }

  private void nanoTimeAroundTask() throws InterruptedException, ExecutionException {
    executor.execute(() -> startedAt = System.nanoTime());
    executor.execute(this::kernel);
    executor.submit(() -> endedAt = System.nanoTime()).get();
    count(endedAt - startedAt, true);
  }

  /** Adds one measurement of ours, or of the baseline, against 1 ms and the kernel's own clock. */
  private void count(double measuredNanos, boolean baseline) {
    double error = Math.abs(measuredNanos - KERNEL_NANOS);
    double kernelClockError = Math.abs(measuredNanos - (kernelEnd - kernelStart));
    if (baseline) {
      baselineErrorNanosSum += error;
      baselineErrorNanosMax = Math.max(baselineErrorNanosMax, error);
      baselineKernelClockErrorNanosSum += kernelClockError;
      baselineKernelClockErrorNanosMax =
          Math.max(baselineKernelClockErrorNanosMax, kernelClockError);
    } else {
      errorNanosSum += error;
      errorNanosMax = Math.max(errorNanosMax, error);
      kernelClockErrorNanosSum += kernelClockError;
      kernelClockErrorNanosMax = Math.max(kernelClockErrorNanosMax, kernelClockError);
    }
  }

  private void kernel() {
    long begin = System.nanoTime();
    Spin.busyFor(KERNEL_NANOS);
    kernelStart = begin;
    kernelEnd = System.nanoTime();
  }
}
