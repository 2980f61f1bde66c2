package dev.openaccel.benchmarks.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * Reads every entry of a JMH JSON result file's content.
   *
   * @throws IllegalArgumentException if {@code json} is not JSON, or not an array of JMH entries
   */
  static List<JmhResult> parseAll(String json) {
    JsonNode root;
    try {
      root = JSON.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not JMH's JSON results: " + e.getOriginalMessage(), e);
    }
    if (root == null || !root.isArray()) {
      throw new IllegalArgumentException(
          "JMH's JSON results are an array, got "
              + (root == null ? "nothing" : root.getNodeType()));
    }
    List<JmhResult> results = new ArrayList<>();
    root.forEach(entry -> results.add(of(entry)));
    return results;
  }

  private static JmhResult of(JsonNode entry) {
    String benchmark = entry.path("benchmark").asText();
    String[] parts = benchmark.split("\\.");
    if (parts.length < 2) {
      throw new IllegalArgumentException("a JMH entry without a benchmark name: " + entry);
    }
    String name = parts[parts.length - 2] + "." + parts[parts.length - 1];
    Map<String, String> params = new LinkedHashMap<>();
    entry.path("params").properties().forEach(p -> params.put(p.getKey(), p.getValue().asText()));
    JsonNode primary = entry.path("primaryMetric");
    Map<Double, Double> percentiles = new LinkedHashMap<>();
    primary
        .path("scorePercentiles")
        .properties()
        .forEach(p -> percentiles.put(Double.valueOf(p.getKey()), number(p.getValue())));
    Map<String, List<Double>> secondary = new LinkedHashMap<>();
    entry
        .path("secondaryMetrics")
        .properties()
        .forEach(m -> secondary.put(m.getKey(), raw(m.getValue())));
    return new JmhResult(
        name,
        params,
        number(primary.path("score")),
        primary.path("scoreUnit").asText(),
        percentiles,
        secondary);
  }

  /** All raw values of a metric, over forks and iterations. */
  private static List<Double> raw(JsonNode metric) {
    List<Double> values = new ArrayList<>();
    metric.path("rawData").forEach(fork -> fork.forEach(value -> values.add(number(value))));
    return values;
  }

  /** JMH writes numbers, and "NaN" as a string. */
  private static double number(JsonNode value) {
    return value.isNumber() ? value.doubleValue() : Double.parseDouble(value.asText());
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
