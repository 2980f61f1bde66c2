package dev.openaccel.benchmarks.support;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * A JMH profiler ({@code -prof dev.openaccel.benchmarks.support.DeviceCpuProfiler}) that reports
 * the CPU time the OpenReg device threads used per operation, read from {@link ThreadMXBean} around
 * each iteration: secondary metric {@value #METRIC}. It counts everything those threads did while
 * the iteration ran, idle polling between operations (the cost of a spinning wait strategy)
 * included.
 */
public final class DeviceCpuProfiler implements InternalProfiler {
  /** The secondary metric's name. */
  public static final String METRIC = "device-cpu";

  private static final String DEVICE_THREAD = "-openaccel-openreg-device-";
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private long before;

  /** CPU nanoseconds used so far by the live device threads. */
  public static long deviceCpuNanos() {
    long sum = 0;
    for (ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
      if (info != null && info.getThreadName().contains(DEVICE_THREAD)) {
        long nanos = THREADS.getThreadCpuTime(info.getThreadId());
        sum += Math.max(nanos, 0); // -1: the thread ended meanwhile
      }
    }
    return sum;
  }

  @Override
  public String getDescription() {
    return "CPU time of the OpenReg device threads per operation";
  }

  @Override
  public void beforeIteration(BenchmarkParams benchmark, IterationParams iteration) {
    before = deviceCpuNanos();
  }

  @Override
  @SuppressWarnings("rawtypes") // JMH's own signature uses the raw Result
  public Collection<? extends Result> afterIteration(
      BenchmarkParams benchmark, IterationParams iteration, IterationResult result) {
    long ops = Math.max(1, result.getMetadata().getMeasuredOps());
    double perOp = (double) (deviceCpuNanos() - before) / ops;
    return List.of(new ScalarResult(METRIC, perOp, "ns/op", AggregationPolicy.AVG));
  }
}
