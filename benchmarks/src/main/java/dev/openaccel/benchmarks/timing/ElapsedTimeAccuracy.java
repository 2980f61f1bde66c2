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
 * timing events. Each invocation adds its error, |measured - 1 ms|, to the counters JMH reports per
 * iteration (JMH zeroes them before each): the error sum, the number of samples and the largest
 * error, in nanoseconds. The baseline takes the two timestamps itself, with {@code
 * System.nanoTime()} tasks queued around the same kernel on a single-thread executor.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ElapsedTimeAccuracy {
  static final long KERNEL_NANOS = 1_000_000;
  private static final Runnable KERNEL = () -> Spin.busyFor(KERNEL_NANOS);

  /** Sum of the errors of this iteration, in nanoseconds. */
  public double errorNanosSum;

  /** Number of measurements of this iteration. */
  public long samples;

  /** Largest error of this iteration, in nanoseconds. */
  public double errorNanosMax;

  private Accelerator accelerator;
  private Stream stream;
  private Event start;
  private Event end;
  private ExecutorService executor;
  private volatile long startedAt;
  private volatile long endedAt;

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
  public void eventElapsedTime() {
    start.record(stream);
    stream.launch("spin-1ms", KERNEL);
    end.record(stream);
    end.synchronize();
    count(start.elapsedTime(end) * 1_000_000.0);
  }

  @Benchmark
  public void nanoTimeAroundTask() throws InterruptedException, ExecutionException {
    executor.execute(() -> startedAt = System.nanoTime());
    executor.execute(KERNEL);
    executor.submit(() -> endedAt = System.nanoTime()).get();
    count(endedAt - startedAt);
  }

  private void count(double measuredNanos) {
    double error = Math.abs(measuredNanos - KERNEL_NANOS);
    errorNanosSum += error;
    samples++;
    errorNanosMax = Math.max(errorNanosMax, error);
  }
}
