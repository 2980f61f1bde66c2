package dev.openaccel.samples.report;

import java.util.Locale;

/** The SVG elements {@link SvgTimeline} writes as text. Stateless. */
final class Svg {
  private Svg() {}

  /** A one-pixel line. */
  static String line(double x1, double y1, double x2, double y2, String stroke) {
    return String.format(
        Locale.ROOT,
        "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\"/>%n",
        x1,
        y1,
        x2,
        y2,
        stroke);
  }

  /** Appends {@code text}, escaped, anchored at ({@code x}, {@code y}). */
  static void text(
      StringBuilder out, double x, double y, String anchor, String weight, String text) {
    out.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-weight=\"%s\">%s</text>%n",
            x,
            y,
            anchor,
            weight,
            escape(text)));
  }

  /** {@code text} with the five XML special characters escaped. */
  static String escape(String text) {
    return text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;")
        .replace("'", "&apos;");
  }
}
