package dev.openaccel.benchmarks.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Prints the markdown results table from a JMH JSON result file.
 *
 * <p>Usage: {@code ResultsTable <results.json> [--smoke]}. With {@code --smoke} it exits with
 * status 1 if any benchmark the table reads produced no result (it never judges speed there).
 */
public final class ResultsTable {
  private ResultsTable() {}

  public static void main(String[] args) throws IOException {
    if (args.length < 1) {
      System.err.println("usage: ResultsTable <jmh-results.json> [--smoke]");
      System.exit(2);
    }
    List<JmhResult> results = JmhResult.parseAll(Files.readString(Path.of(args[0])));
    System.out.print(render(results));
    if (args.length > 1 && args[1].equals("--smoke")) {
      List<String> missing =
          Rows.benchmarkNames().stream()
              .filter(name -> results.stream().noneMatch(r -> r.name().equals(name)))
              .toList();
      if (!missing.isEmpty()) {
        System.err.println("benchmarks without a result: " + String.join(", ", missing));
        System.exit(1);
      }
    }
  }

  static String render(List<JmhResult> results) {
    StringBuilder table = new StringBuilder();
    table.append("| benchmark | ours | baseline | ratio | target | result |\n");
    table.append("|---|---:|---:|---:|---|---|\n");
    for (Row row : Rows.all()) {
      table.append(row.render(results)).append('\n');
    }
    table.append('\n');
    table.append(
        "ratio: how many times better ours is than the baseline (ours/baseline for rates,"
            + " baseline/ours for times, errors and sizes); above 1, ours is better.\n");
    return table.toString();
  }
}
