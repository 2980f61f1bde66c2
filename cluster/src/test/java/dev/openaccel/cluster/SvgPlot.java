package dev.openaccel.cluster;

import java.util.List;
import java.util.Locale;

/**
 * A line chart as SVG text, with no dependency: sizes in bytes on a log2 x axis, a linear y axis
 * from 0, one polyline with dots per series and a legend. Enough for the measurement mains' plots.
 */
final class SvgPlot {
  private static final int WIDTH = 760;
  private static final int HEIGHT = 440;
  private static final int LEFT = 70;
  private static final int RIGHT = 170;
  private static final int TOP = 40;
  private static final int BOTTOM = 50;

  /** One line: its name in the legend, its colour, and a value per x. */
  record Series(String name, String color, double[] values) {}

  private SvgPlot() {}

  /** The chart of {@code series} over {@code sizes} (ascending powers of two). */
  static String render(String title, String yLabel, long[] sizes, List<Series> series) {
    double top = 0;
    for (Series s : series) {
      top = Math.max(top, Samples.max(s.values()));
    }
    double step = niceStep(top / 5);
    double yMax = Math.ceil(top / step) * step;
    double xMin = log2(sizes[0]);
    double xSpan = Math.max(1, log2(sizes[sizes.length - 1]) - xMin);
    int plotW = WIDTH - LEFT - RIGHT;
    int plotH = HEIGHT - TOP - BOTTOM;
    StringBuilder svg = new StringBuilder();
    svg.append(
        format(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                + " font-family=\"sans-serif\" font-size=\"12\">%n"
                + "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>%n"
                + "<text x=\"%d\" y=\"22\" font-size=\"14\">%s</text>%n",
            WIDTH, HEIGHT, LEFT, escape(title)));
    for (double y = 0; y <= yMax + step / 2; y += step) {
      double py = TOP + plotH - y / yMax * plotH;
      svg.append(
          format(
              "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                  + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.0f</text>%n",
              LEFT, py, LEFT + plotW, py, LEFT - 6, py + 4, y));
    }
    for (int i = 0; i < sizes.length; i += 2) { // every other power of two: powers of 4
      double px = LEFT + (log2(sizes[i]) - xMin) / xSpan * plotW;
      svg.append(
          format(
              "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#eee\"/>"
                  + "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
              px, TOP, px, TOP + plotH, px, TOP + plotH + 18, Samples.size(sizes[i])));
    }
    svg.append(
        format(
            "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#444\"/>%n"
                + "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">size (log scale)</text>%n"
                + "<text transform=\"translate(18,%d) rotate(-90)\" text-anchor=\"middle\">%s</text>%n",
            LEFT,
            TOP,
            plotW,
            plotH,
            LEFT + plotW / 2,
            HEIGHT - 10,
            TOP + plotH / 2,
            escape(yLabel)));
    for (int k = 0; k < series.size(); k++) {
      Series s = series.get(k);
      StringBuilder points = new StringBuilder();
      for (int i = 0; i < sizes.length; i++) {
        double px = LEFT + (log2(sizes[i]) - xMin) / xSpan * plotW;
        double py = TOP + plotH - s.values()[i] / yMax * plotH;
        points.append(format("%.1f,%.1f ", px, py));
        svg.append(
            format("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>%n", px, py, s.color()));
      }
      int ly = TOP + 10 + 20 * k;
      svg.append(
          format(
              "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>%n"
                  + "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"/>"
                  + "<text x=\"%d\" y=\"%d\">%s</text>%n",
              points.toString().trim(),
              s.color(),
              LEFT + plotW + 12,
              ly,
              LEFT + plotW + 32,
              ly,
              s.color(),
              LEFT + plotW + 38,
              ly + 4,
              escape(s.name())));
    }
    return svg.append("</svg>\n").toString();
  }

  /** 1, 2 or 5 times a power of ten, at least {@code raw}. */
  private static double niceStep(double raw) {
    double power = Math.pow(10, Math.floor(Math.log10(Math.max(raw, 1e-9))));
    for (double m : new double[] {1, 2, 5, 10}) {
      if (m * power >= raw) {
        return m * power;
      }
    }
    return 10 * power;
  }

  private static double log2(long value) {
    return Math.log(value) / Math.log(2);
  }

  private static String format(String pattern, Object... args) {
    return String.format(Locale.ROOT, pattern, args);
  }

  private static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
