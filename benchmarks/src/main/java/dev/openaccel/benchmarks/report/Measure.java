package dev.openaccel.benchmarks.report;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * How one table cell is read from the results: which benchmark, with which parameters, and which
 * number of its result.
 *
 * @param name the benchmark, as {@code Class.method}
 * @param params parameters the result must have (others may differ)
 * @param quantity what the number is
 * @param read the number, from a matching result
 */
record Measure(
    String name, Map<String, String> params, Quantity quantity, ToDoubleFunction<JmhResult> read) {

  static Measure rate(String name) {
    return new Measure(name, Map.of(), Quantity.RATE, JmhResult::opsPerSecond);
  }

  static Measure time(String name) {
    return new Measure(name, Map.of(), Quantity.TIME, JmhResult::nanosPerOp);
  }

  static Measure percentile(String name, double percentile) {
    return new Measure(name, Map.of(), Quantity.TIME, r -> r.percentileNanos(percentile));
  }

  /** The primary score of a run over {@code items} items, divided by {@code items}. */
  static Measure perItem(String name, int items) {
    return new Measure(
        name, Map.of("items", String.valueOf(items)), Quantity.TIME, r -> r.nanosPerOp() / items);
  }

  /** The mean over iterations of the secondary metric {@code metric}, for {@code items}. */
  static Measure perIteration(String name, int items, String metric, Quantity quantity) {
    return new Measure(
        name,
        Map.of("items", String.valueOf(items)),
        quantity,
        r -> secondary(r, metric).stream().mapToDouble(d -> d).average().orElse(0));
  }

  /** Mean over all iterations: the sum of the {@code sumMetric}s over that of {@code samples}. */
  static Measure meanOfSamples(String name, String sumMetric) {
    return new Measure(
        name,
        Map.of(),
        Quantity.TIME,
        r -> sum(secondary(r, sumMetric)) / sum(secondary(r, "samples")));
  }

  /** The mean over iterations of the secondary metric {@code metric}, times {@code scale}. */
  static Measure secondaryMean(String name, String metric, double scale) {
    return new Measure(
        name,
        Map.of(),
        Quantity.TIME,
        r -> scale * secondary(r, metric).stream().mapToDouble(d -> d).average().orElse(0));
  }

  /**
   * The median over iterations of the secondary metric {@code metric}: one iteration that the
   * machine disturbed moves it less than it moves the mean.
   */
  static Measure secondaryMedian(String name, String metric) {
    return new Measure(
        name,
        Map.of(),
        Quantity.TIME,
        r -> {
          double[] values = secondary(r, metric).stream().mapToDouble(d -> d).sorted().toArray();
          int middle = values.length / 2;
          return values.length % 2 == 1
              ? values[middle]
              : (values[middle - 1] + values[middle]) / 2;
        });
  }

  /** Largest {@code maxMetric} of any iteration. */
  static Measure maxOfIterations(String name, String maxMetric) {
    return new Measure(
        name,
        Map.of(),
        Quantity.TIME,
        r -> secondary(r, maxMetric).stream().mapToDouble(d -> d).max().orElse(0));
  }

  /** Bytes per second, for a benchmark that moves {@code bytesPerOp} per operation. */
  static Measure bandwidth(String name, long bytesPerOp) {
    return new Measure(
        name, Map.of(), Quantity.BANDWIDTH, r -> bytesPerOp / (r.nanosPerOp() / 1e9));
  }

  /** Floating-point operations per second, for a benchmark of {@code flopPerOp} per operation. */
  static Measure flops(String name, double flopPerOp) {
    return new Measure(name, Map.of(), Quantity.FLOPS, r -> flopPerOp * r.opsPerSecond());
  }

  /** The same measure, restricted to results whose {@code param} is {@code value}. */
  Measure with(String param, Object value) {
    return new Measure(name, Map.of(param, String.valueOf(value)), quantity, read);
  }

  /** The value, if {@code results} hold a matching entry. */
  Optional<Double> in(List<JmhResult> results) {
    return results.stream()
        .filter(r -> r.name().equals(name) && r.params().entrySet().containsAll(params.entrySet()))
        .findFirst()
        .map(read::applyAsDouble);
  }

  private static List<Double> secondary(JmhResult result, String metric) {
    List<Double> values = result.secondary().get(metric);
    if (values == null || values.isEmpty()) {
      throw new IllegalStateException(result.name() + " has no secondary metric " + metric);
    }
    return values;
  }

  private static double sum(List<Double> values) {
    return values.stream().mapToDouble(d -> d).sum();
  }
}
