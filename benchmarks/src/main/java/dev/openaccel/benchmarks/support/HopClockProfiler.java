package dev.openaccel.benchmarks.support;

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
 * A JMH profiler ({@code -prof dev.openaccel.benchmarks.support.HopClockProfiler}) that reports the
 * p50 and p99 of the hops an iteration added to {@link HopClock}, as secondary metrics {@value
 * #P50} and {@value #P99} (nanoseconds); nothing for benchmarks that add none.
 */
public final class HopClockProfiler implements InternalProfiler {
  /** The secondary metrics' names. */
  public static final String P50 = "kernel-clock-hop-p50";

  public static final String P99 = "kernel-clock-hop-p99";

  @Override
  public String getDescription() {
    return "percentiles of the hops timed by the kernels themselves";
  }

  @Override
  public void beforeIteration(BenchmarkParams benchmark, IterationParams iteration) {
    HopClock.clear();
  }

  @Override
  @SuppressWarnings("rawtypes") // JMH's own signature uses the raw Result
  public Collection<? extends Result> afterIteration(
      BenchmarkParams benchmark, IterationParams iteration, IterationResult result) {
    if (HopClock.count() == 0) {
      return List.of();
    }
    return List.of(
        new ScalarResult(P50, HopClock.percentile(50), "ns", AggregationPolicy.AVG),
        new ScalarResult(P99, HopClock.percentile(99), "ns", AggregationPolicy.AVG));
  }
}
