package dev.openaccel.benchmarks.report;

import static dev.openaccel.benchmarks.report.Measure.percentile;
import static dev.openaccel.benchmarks.report.Measure.secondaryMean;
import static dev.openaccel.benchmarks.report.Measure.secondaryMedian;
import static dev.openaccel.benchmarks.report.Target.advantageAtLeast;
import static dev.openaccel.benchmarks.report.Target.atMost;
import static dev.openaccel.benchmarks.report.Target.none;

import dev.openaccel.benchmarks.hop.IdleCpu;
import dev.openaccel.benchmarks.support.DeviceCpuProfiler;
import dev.openaccel.benchmarks.support.HopClockProfiler;
import java.util.List;

/**
 * The rows per wait strategy of the device threads: the cross-stream hop's p50 and p99 against
 * {@code CompletableFuture} stages, end to end (the benchmark's release of A's kernel to its seeing
 * B's start) and on the kernels' clock (A's kernel ending to B's starting, from {@link
 * HopClockProfiler}, the median of the iterations' percentiles: the hop target's cut, "A records, B
 * blocked on it starts its next kernel"), and what the device threads burn, per hop and per idle
 * second (from {@link DeviceCpuProfiler}).
 */
final class WaitStrategyRows {
  private static final String HOP = "CrossStreamHop.eventHop";
  private static final String FUTURES = "CrossStreamHop.futureHop";
  private static final List<String> STRATEGIES = List.of("blocking", "yielding", "busy-spin");

  private WaitStrategyRows() {}

  static void add(List<Row> rows) {
    for (String strategy : STRATEGIES) {
      boolean byDefault = strategy.equals("blocking");
      String label = strategy + (strategy.equals("busy-spin") ? ", 1 device x 2 threads" : "");
      rows.add(
          new Row(
              "cross-stream hop p50, " + label + " (vs CompletableFuture stages)",
              percentile(HOP, 50).with("waitStrategy", strategy),
              percentile(FUTURES, 50),
              byDefault ? atMost(4_000, "<= 4 µs") : none()));
      rows.add(
          new Row(
              "↳ p50 on the kernels' clock, " + label,
              secondaryMedian(HOP, HopClockProfiler.P50).with("waitStrategy", strategy),
              secondaryMedian(FUTURES, HopClockProfiler.P50),
              strategy.equals("yielding") ? atMost(1_000, "<= 1 µs, idle machine") : none()));
      rows.add(
          new Row(
              "cross-stream hop p99, " + label + " (vs CompletableFuture stages)",
              percentile(HOP, 99).with("waitStrategy", strategy),
              percentile(FUTURES, 99),
              byDefault
                  ? atMost(20_000, "<= 20 µs").and(advantageAtLeast(1, ">= 1x stages"))
                  : none()));
      rows.add(
          new Row(
              "↳ p99 on the kernels' clock, " + label,
              secondaryMedian(HOP, HopClockProfiler.P99).with("waitStrategy", strategy),
              secondaryMedian(FUTURES, HopClockProfiler.P99),
              none()));
      rows.add(
          new Row(
              "↳ device-thread CPU per hop, " + strategy + " (idle between hops included)",
              secondaryMean(HOP, DeviceCpuProfiler.METRIC, 1).with("waitStrategy", strategy),
              null,
              none()));
      rows.add(
          new Row(
              "↳ device-thread CPU per idle second, " + label,
              secondaryMean(
                      "IdleCpu.kernelThenIdle", DeviceCpuProfiler.METRIC, 1e3 / IdleCpu.IDLE_MILLIS)
                  .with("waitStrategy", strategy),
              null,
              none()));
    }
  }
}
