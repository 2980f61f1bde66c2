package dev.openaccel.benchmarks.support;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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

  private Map<Long, Long> before = Map.of();

  /** CPU nanoseconds used so far by each live device thread, by thread id. */
  public static Map<Long, Long> deviceCpuNanos() {
    Map<Long, Long> nanos = new HashMap<>();
    for (ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
      if (info != null && info.getThreadName().contains(DEVICE_THREAD)) {
        long cpu = THREADS.getThreadCpuTime(info.getThreadId());
        if (cpu >= 0) { // -1: the thread ended meanwhile
          nanos.put(info.getThreadId(), cpu);
        }
      }
    }
    return nanos;
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
    Map<Long, Long> after = deviceCpuNanos();
    if (!after.keySet().containsAll(before.keySet())) {
      return List.of();
    }
    long used = 0;
    for (Map.Entry<Long, Long> thread : after.entrySet()) {
      used += thread.getValue() - before.getOrDefault(thread.getKey(), 0L);
    }
    long ops = Math.max(1, result.getMetadata().getMeasuredOps());
    return List.of(new ScalarResult(METRIC, (double) used / ops, "ns/op", AggregationPolicy.AVG));
  }
}
