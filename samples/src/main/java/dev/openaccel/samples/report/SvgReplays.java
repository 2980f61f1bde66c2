package dev.openaccel.samples.report;

import static dev.openaccel.samples.report.Svg.escape;

import java.util.Locale;

/**
 * How {@link SvgTimeline} draws a {@link ReplaySpan}: a shaded outline behind its kernels, a little
 * taller than their lane (red when the replay failed), with a tooltip, and its name over it where
 * the outline is wide enough for the text. Stateless.
 */
final class SvgReplays {
  private SvgReplays() {}

  /** The outline from {@code x0} to {@code x1} on the lane at {@code y}, {@code lane} high. */
  static void outline(StringBuilder out, ReplaySpan replay, double x0, double x1, int y, int lane) {
    String tip =
        String.format(
            Locale.ROOT,
            "%s%s: %d kernels, %.3f ms",
            replay.name(),
            replay.failed() ? " (failed)" : "",
            replay.kernels().size(),
            replay.durationNanos() / 1e6);
    out.append(
        String.format(
            Locale.ROOT,
            "<rect class=\"replay\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" rx=\"2\""
                + " fill=\"#000\" fill-opacity=\"0.08\" stroke=\"%s\" stroke-width=\"1.5\">"
                + "<title>%s</title></rect>%n",
            x0 - 1,
            y - 2.5,
            x1 - x0 + 2,
            lane + 5,
            replay.failed() ? "#d00" : "#333",
            escape(tip)));
  }

  /** The name centred over {@code x0} to {@code x1} on the lane at {@code y}, if it fits. */
  static void label(StringBuilder out, ReplaySpan replay, double x0, double x1, int y) {
    Svg.label(out, "replay-label", replay.name(), x0, x1, y);
  }

  /** The legend's swatch at {@code x}, on the line at {@code y}; returns the next entry's x. */
  static double legend(StringBuilder out, double x, int y) {
    out.append(
        String.format(
            Locale.ROOT,
            "<rect x=\"%.1f\" y=\"%d\" width=\"12\" height=\"12\" fill=\"#000\""
                + " fill-opacity=\"0.08\" stroke=\"#333\" stroke-width=\"1.5\"/>%n",
            x,
            y - 10));
    String text = "graph replay (red: failed)";
    Svg.text(out, x + 16, y, "start", "normal", text);
    return x + 40 + 7 * text.length();
  }
}
