package dev.openaccel.samples.report;

import static dev.openaccel.samples.report.Svg.escape;

import java.util.List;
import java.util.Locale;
import java.util.function.LongToDoubleFunction;

/**
 * How {@link SvgTimeline} draws a {@link Collective}: a tinted box over its span on its stream's
 * lane, outlined red when it failed, with a tooltip; inside it one thin bar per piece it sent, the
 * rows of {@link Collective#rows()} stacked top to bottom, each with a tooltip of its bytes; and
 * its name over it where the box is wide enough for the text. Stateless.
 */
final class SvgCollectives {
  private static final String FILL = "#2a9d8f";
  private static final String STROKE = "#1d6f65";
  private static final String FAILED = "#d00";

  private SvgCollectives() {}

  /** The box and its pieces, on the lane at {@code y}, {@code lane} high; {@code x} maps time. */
  static void draw(StringBuilder out, Collective op, LongToDoubleFunction x, int y, int lane) {
    double x0 = x.applyAsDouble(op.startNanos());
    double x1 = x.applyAsDouble(op.endNanos());
    String tip =
        String.format(
            Locale.ROOT,
            "%s%s: %d bytes, %.3f ms, pieces sent: %d",
            op.name(),
            op.failed() ? " (failed)" : "",
            op.bytes(),
            op.durationNanos() / 1e6,
            op.pieces().size());
    out.append(
        String.format(
            Locale.ROOT,
            "<rect class=\"collective\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\""
                + " fill=\"%s\" fill-opacity=\"0.15\" stroke=\"%s\" stroke-width=\"%s\">"
                + "<title>%s</title></rect>%n",
            x0,
            y + 1,
            Math.max(0.5, x1 - x0),
            lane - 2,
            FILL,
            op.failed() ? FAILED : STROKE,
            op.failed() ? "1.5" : "0.8",
            escape(tip)));
    List<List<CollectivePiece>> rows = op.rows();
    double height = (lane - 6.0) / Math.max(1, rows.size());
    for (int row = 0; row < rows.size(); row++) {
      for (CollectivePiece piece : rows.get(row)) {
        double from = x.applyAsDouble(piece.startNanos());
        double to = x.applyAsDouble(piece.endNanos());
        out.append(
            String.format(
                Locale.ROOT,
                "<rect class=\"collective-step\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\""
                    + " height=\"%.2f\" fill=\"%s\"><title>%s</title></rect>%n",
                from,
                y + 3 + row * height,
                Math.max(0.5, to - from),
                Math.max(0.8, height - 0.5),
                FILL,
                escape(pieceTip(op, piece))));
      }
    }
  }

  /** The name centred over the box on the lane at {@code y}, if it fits; {@code x} maps time. */
  static void label(StringBuilder out, Collective op, LongToDoubleFunction x, int y) {
    double x0 = x.applyAsDouble(op.startNanos());
    double x1 = x.applyAsDouble(op.endNanos());
    Svg.label(out, "collective-label", op.name(), x0, x1, y);
  }

  /** The legend's swatch at {@code x}, on the line at {@code y}; returns the next entry's x. */
  static double legend(StringBuilder out, double x, int y) {
    out.append(
        String.format(
            Locale.ROOT,
            "<rect x=\"%.1f\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\""
                + " fill-opacity=\"0.15\" stroke=\"%s\" stroke-width=\"0.8\"/>"
                + "<rect x=\"%.1f\" y=\"%d\" width=\"8\" height=\"3\" fill=\"%s\"/>%n",
            x,
            y - 10,
            FILL,
            STROKE,
            x + 2,
            y - 6,
            FILL));
    String text = "collective, with the pieces it sent (red: failed)";
    Svg.text(out, x + 16, y, "start", "normal", text);
    return x + 40 + 7 * text.length();
  }

  private static String pieceTip(Collective op, CollectivePiece piece) {
    return String.format(
        Locale.ROOT,
        "%s %s: %d bytes, %.3f ms",
        op.name(),
        piece.name(),
        piece.bytes(),
        piece.durationNanos() / 1e6);
  }
}
