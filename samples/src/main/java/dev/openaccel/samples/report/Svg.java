package dev.openaccel.samples.report;

import java.util.Locale;

/** The SVG elements {@link SvgTimeline} writes as text. Stateless. */
final class Svg {
  /** The width of a character of a label, in pixels, at its 9-pixel font size. */
  private static final double CHAR = 5.5;

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

  /**
   * Appends {@code name}, of class {@code cssClass}, centred over {@code x0} to {@code x1} on the
   * lane at {@code y}, if it fits there at its 9-pixel font size.
   */
  static void label(StringBuilder out, String cssClass, String name, double x0, double x1, int y) {
    if (x1 - x0 < CHAR * name.length() + 4) {
      return;
    }
    out.append(
        String.format(
            Locale.ROOT,
            "<text class=\"%s\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\""
                + " font-size=\"9\" fill=\"#111\" stroke=\"white\" stroke-width=\"2.5\""
                + " paint-order=\"stroke\" pointer-events=\"none\">%s</text>%n",
            cssClass,
            (x0 + x1) / 2,
            y + 12,
            escape(name)));
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
