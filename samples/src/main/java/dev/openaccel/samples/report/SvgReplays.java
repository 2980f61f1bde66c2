package dev.openaccel.samples.report;

import static dev.openaccel.samples.report.Svg.escape;

import java.util.Locale;

/**
 * How {@link SvgTimeline} draws a {@link ReplaySpan}: a shaded outline behind its kernels, a little
 * taller than their lane (red when the replay failed), with a tooltip, and its name over it where
 * the outline is wide enough for the text. Stateless.
 */
final class SvgReplays {
  /** The width of a character of a label, in pixels, at its 9-pixel font size. */
  private static final double CHAR = 5.5;

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
    if (x1 - x0 < CHAR * replay.name().length() + 4) {
      return;
    }
    out.append(
        String.format(
            Locale.ROOT,
            "<text class=\"replay-label\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\""
                + " font-size=\"9\" fill=\"#111\" stroke=\"white\" stroke-width=\"2.5\""
                + " paint-order=\"stroke\" pointer-events=\"none\">%s</text>%n",
            (x0 + x1) / 2,
            y + 12,
            escape(replay.name())));
  }
}
