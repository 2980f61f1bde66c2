package dev.openaccel.benchmarks.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One entry of JMH's JSON results: a benchmark method with one set of parameters.
 *
 * @param name the class's simple name and the method, e.g. {@code EmptyKernels.streamLaunch}
 * @param params the {@code @Param} values of this entry
 * @param score the primary score, in {@code unit}
 * @param unit JMH's unit of the score, e.g. {@code ops/s} or {@code ns/op}
 * @param percentiles for sample-time results, percentile (e.g. 50.0) to value, in {@code unit}
 * @param secondary each secondary metric's raw values, one per measured iteration
 */
record JmhResult(
    String name,
    Map<String, String> params,
    double score,
    String unit,
    Map<Double, Double> percentiles,
    Map<String, List<Double>> secondary) {

  /** Reads every entry of a JMH JSON result file's content. */
  static List<JmhResult> parseAll(String json) {
    List<JmhResult> results = new ArrayList<>();
    for (Object entry : (List<?>) Json.parse(json)) {
      results.add(of((Map<?, ?>) entry));
    }
    return results;
  }

  private static JmhResult of(Map<?, ?> entry) {
    String benchmark = (String) entry.get("benchmark");
    String[] parts = benchmark.split("\\.");
    String name = parts[parts.length - 2] + "." + parts[parts.length - 1];
    Map<String, String> params = new LinkedHashMap<>();
    if (entry.get("params") instanceof Map<?, ?> given) {
      given.forEach((k, v) -> params.put((String) k, String.valueOf(v)));
    }
    Map<?, ?> primary = (Map<?, ?>) entry.get("primaryMetric");
    Map<Double, Double> percentiles = new LinkedHashMap<>();
    if (primary.get("scorePercentiles") instanceof Map<?, ?> given) {
      given.forEach((k, v) -> percentiles.put(Double.valueOf((String) k), number(v)));
    }
    Map<String, List<Double>> secondary = new LinkedHashMap<>();
    if (entry.get("secondaryMetrics") instanceof Map<?, ?> metrics) {
      metrics.forEach((k, v) -> secondary.put((String) k, raw((Map<?, ?>) v)));
    }
    return new JmhResult(
        name,
        params,
        number(primary.get("score")),
        (String) primary.get("scoreUnit"),
        percentiles,
        secondary);
  }

  /** All raw values of a metric, over forks and iterations. */
  private static List<Double> raw(Map<?, ?> metric) {
    List<Double> values = new ArrayList<>();
    if (metric.get("rawData") instanceof List<?> forks) {
      for (Object fork : forks) {
        for (Object value : (List<?>) fork) {
          values.add(number(value));
        }
      }
    }
    return values;
  }

  /** JMH writes numbers, and "NaN" as a string. */
  private static double number(Object value) {
    return value instanceof Double d ? d : Double.parseDouble(String.valueOf(value));
  }

  /** The primary score as nanoseconds per operation; for time-per-operation units only. */
  double nanosPerOp() {
    return score * nanosIn(unit.substring(0, unit.indexOf('/')));
  }

  /** The primary score as operations per second; for operations-per-time units only. */
  double opsPerSecond() {
    return score * 1e9 / nanosIn(unit.substring(unit.indexOf('/') + 1));
  }

  /** A sample-time percentile as nanoseconds. */
  double percentileNanos(double percentile) {
    Double value = percentiles.get(percentile);
    if (value == null) {
      throw new IllegalStateException(name + " has no percentile " + percentile);
    }
    return value * nanosIn(unit.substring(0, unit.indexOf('/')));
  }

  private static double nanosIn(String timeUnit) {
    return switch (timeUnit) {
      case "ns" -> 1;
      case "us" -> 1e3;
      case "ms" -> 1e6;
      case "s" -> 1e9;
      case "min" -> 60e9;
      default -> throw new IllegalArgumentException("unknown JMH time unit " + timeUnit);
    };
  }
}
