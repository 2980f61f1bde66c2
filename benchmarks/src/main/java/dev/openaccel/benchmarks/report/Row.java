package dev.openaccel.benchmarks.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * One line of the results table: what is measured, our benchmark, its baseline and the target.
 *
 * @param what the line's label
 * @param ours our benchmark
 * @param baseline the baseline it is compared with, or null
 * @param target the row's performance target, or {@link Target#none()}
 */
record Row(String what, Measure ours, Measure baseline, Target target) {

  /** The line as markdown table cells, read from {@code results}. */
  String render(List<JmhResult> results) {
    Optional<Double> mine = ours.in(results);
    Optional<Double> theirs = baseline == null ? Optional.empty() : baseline.in(results);
    Double advantage =
        mine.isPresent() && theirs.isPresent()
            ? ours.quantity().advantage(mine.get(), theirs.get())
            : null;
    String ratio = advantage == null ? "-" : String.format(Locale.ROOT, "%.2fx", advantage);
    return "| "
        + String.join(
            " | ",
            what,
            mine.map(v -> ours.quantity().format(v)).orElse("not run"),
            baseline == null
                ? "-"
                : theirs.map(v -> baseline.quantity().format(v)).orElse("not run"),
            ratio,
            target.text(),
            verdict(mine, advantage))
        + " |";
  }

  /**
   * The line over several runs of the same table: for ours, the baseline and the ratio, the median
   * and, in brackets, the range; the verdict is on the medians.
   */
  String renderRepeated(List<List<JmhResult>> runs) {
    List<Double> mine = values(ours, runs);
    List<Double> theirs = baseline == null ? List.of() : values(baseline, runs);
    List<Double> ratios = new ArrayList<>();
    for (List<JmhResult> run : runs) {
      Optional<Double> m = ours.in(run);
      Optional<Double> t = baseline == null ? Optional.empty() : baseline.in(run);
      if (m.isPresent() && t.isPresent()) {
        ratios.add(ours.quantity().advantage(m.get(), t.get()));
      }
    }
    Optional<Double> median = median(mine);
    Double advantage = median(ratios).orElse(null);
    return "| "
        + String.join(
            " | ",
            what,
            spread(mine, ours.quantity()::format),
            baseline == null ? "-" : spread(theirs, baseline.quantity()::format),
            spread(ratios, r -> String.format(Locale.ROOT, "%.2fx", r)),
            target.text(),
            verdict(median, advantage))
        + " |";
  }

  private static List<Double> values(Measure measure, List<List<JmhResult>> runs) {
    List<Double> values = new ArrayList<>();
    runs.forEach(run -> measure.in(run).ifPresent(values::add));
    return values;
  }

  private static Optional<Double> median(List<Double> values) {
    if (values.isEmpty()) {
      return Optional.empty();
    }
    List<Double> sorted = values.stream().sorted().toList();
    int n = sorted.size();
    return Optional.of(
        n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2);
  }

  private static String spread(List<Double> values, Function<Double, String> format) {
    if (values.isEmpty()) {
      return "not run";
    }
    double min = values.stream().mapToDouble(d -> d).min().orElseThrow();
    double max = values.stream().mapToDouble(d -> d).max().orElseThrow();
    return format.apply(median(values).orElseThrow())
        + " ["
        + format.apply(min)
        + " – "
        + format.apply(max)
        + "]";
  }

  private String verdict(Optional<Double> mine, Double advantage) {
    if (target.check() == null) {
      return "-";
    }
    if (mine.isEmpty()) {
      return "**missing**";
    }
    return target.check().passes(mine.get(), advantage) ? "pass" : "**FAIL**";
  }
}
