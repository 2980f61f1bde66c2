package dev.openaccel.benchmarks.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Prints the markdown results table from JMH JSON result files.
 *
 * <p>Usage: {@code ResultsTable <results.json>... [--smoke]}. Given several files (runs of the same
 * table), each cell shows the median over the runs and, in brackets, their range. With {@code
 * --smoke} it exits with status 1 if any benchmark the table reads produced no result (it never
 * judges speed there).
 */
public final class ResultsTable {
  private ResultsTable() {}

  public static void main(String[] args) throws IOException {
    List<String> files = new ArrayList<>(List.of(args));
    boolean smoke = files.remove("--smoke");
    if (files.isEmpty()) {
      System.err.println("usage: ResultsTable <jmh-results.json>... [--smoke]");
      System.exit(2);
    }
    List<List<JmhResult>> runs = new ArrayList<>();
    for (String file : files) {
      runs.add(JmhResult.parseAll(Files.readString(Path.of(file))));
    }
    List<JmhResult> results = runs.get(0);
    System.out.print(runs.size() == 1 ? render(results) : renderRepeated(runs));
    if (smoke) {
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
    StringBuilder table = header("");
    for (Row row : Rows.all()) {
      table.append(row.render(results)).append('\n');
    }
    return footer(table);
  }

  static String renderRepeated(List<List<JmhResult>> runs) {
    StringBuilder table = header(" (median [range] of " + runs.size() + " runs)");
    for (Row row : Rows.all()) {
      table.append(row.renderRepeated(runs)).append('\n');
    }
    return footer(table);
  }

  private static StringBuilder header(String over) {
    StringBuilder table = new StringBuilder();
    table.append("| benchmark" + over + " | ours | baseline | ratio | target | result |\n");
    table.append("|---|---:|---:|---:|---|---|\n");
    return table;
  }

  private static String footer(StringBuilder table) {
    table.append('\n');
    table.append(
        "ratio: how many times better ours is than the baseline (ours/baseline for rates,"
            + " baseline/ours for times, errors and sizes); above 1, ours is better.\n");
    return table.toString();
  }
}
