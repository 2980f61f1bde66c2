package dev.openaccel.benchmarks.report;

/**
 * A performance target of the project (the table is {@link Rows}), checked against our value and
 * our advantage over the baseline (null when the row has no baseline).
 *
 * @param text the target as printed in the table
 * @param check whether a measured row meets it; null when the row has no target
 */
record Target(String text, Check check) {

  /** The test behind a target. */
  @FunctionalInterface
  interface Check {
    boolean passes(double ours, Double advantage);
  }

  static Target none() {
    return new Target("-", null);
  }

  static Target atMost(double limit, String text) {
    return new Target(text, (ours, advantage) -> ours <= limit);
  }

  static Target atLeast(double limit, String text) {
    return new Target(text, (ours, advantage) -> ours >= limit);
  }

  /** Our advantage over the baseline is at least {@code factor} (e.g. 0.7 = at most 30% worse). */
  static Target advantageAtLeast(double factor, String text) {
    return new Target(text, (ours, advantage) -> advantage != null && advantage >= factor);
  }

  /** Passes when the benchmark completed at all (e.g. it fit in the heap it was given). */
  static Target completes(String text) {
    return new Target(text, (ours, advantage) -> true);
  }

  Target and(Target other) {
    return new Target(
        text + "; " + other.text,
        (ours, advantage) -> check.passes(ours, advantage) && other.check.passes(ours, advantage));
  }
}
