package dev.openaccel.benchmarks.report;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * One line of the results table: what is measured, our benchmark, its baseline and the target.
 *
 * @param what the line's label
 * @param ours our benchmark
 * @param baseline the baseline it is compared with, or null
 * @param target the target from DESIGN.md, or {@link Target#none()}
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
