package dev.openaccel.samples.report;

import static dev.openaccel.samples.report.Svg.escape;
import static dev.openaccel.samples.report.Svg.line;
import static dev.openaccel.samples.report.Svg.text;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Draws a {@link Timeline} as a self-contained SVG picture: one lane per stream grouped by device,
 * a rectangle per kernel coloured by its kind (with a tooltip), each {@link Wait} as a hatched
 * rectangle with an arrow from the end of the kernel that released it, a time axis in milliseconds
 * and a legend. Runs of sub-pixel kernels of one kind, less than half a pixel apart, merge into one
 * rectangle, so the file stays small for long runs; every wider kernel has its own. Waits narrower
 * than {@value #MIN_WAIT} pixels are not drawn: their arrows would bury the picture. Each {@link
 * ReplaySpan} is a shaded outline behind its kernels on its stream's lane (red when it failed),
 * with a tooltip, and its name over it where the outline is wide enough for the text. Each {@link
 * Collective} is drawn as {@link SvgCollectives} says: a tinted box over its span with a bar per
 * piece it sent inside, behind the kernels of its lane.
 */
public final class SvgTimeline {
  private static final int WIDTH = 1200;
  private static final int LEFT = 200;
  private static final int RIGHT = 24;
  private static final int TOP = 44;
  private static final int HEADER = 22;
  private static final int LANE = 18;
  private static final int GAP = 6;
  private static final int PLOT = WIDTH - LEFT - RIGHT;

  /** Waits narrower than this many pixels are left out: their arrows would only add clutter. */
  private static final double MIN_WAIT = 3;

  private static final String[] PALETTE = {
    "#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#76b7b2", "#edc948", "#9c755f", "#bab0ac"
  };

  private static final String DEFS =
      "<defs><pattern id=\"wait\" width=\"4\" height=\"4\" patternUnits=\"userSpaceOnUse\""
          + " patternTransform=\"rotate(45)\"><rect width=\"4\" height=\"4\" fill=\"#eee\"/>"
          + "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"4\" stroke=\"#999\" stroke-width=\"1.5\"/>"
          + "</pattern><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\""
          + " markerWidth=\"6\" markerHeight=\"6\" orient=\"auto-start-reverse\">"
          + "<path d=\"M 0 0 L 10 5 L 0 10 z\" fill=\"#c0392b\"/></marker></defs>\n";

  private final Timeline timeline;
  private final Map<Track, Integer> laneTops = new HashMap<>();
  private final StringBuilder svg = new StringBuilder();
  private final List<String> kinds;
  private final long origin;
  private final double nanosPerPixel;

  private SvgTimeline(Timeline timeline) {
    this.timeline = timeline;
    this.kinds = timeline.kinds();
    this.origin = timeline.originNanos();
    this.nanosPerPixel = Math.max(1, timeline.endNanos() - origin) / (double) PLOT;
  }

  /** Writes the picture of {@code timeline}, headed by {@code title}, to {@code file} (UTF-8). */
  public static void write(Timeline timeline, String title, Path file) throws IOException {
    Files.writeString(file, svg(timeline, title), StandardCharsets.UTF_8);
  }

  /** The picture as an SVG document. */
  public static String svg(Timeline timeline, String title) {
    return new SvgTimeline(timeline).draw(title);
  }

  private String draw(String title) {
    int lanesBottom = TOP;
    StringBuilder body = new StringBuilder();
    for (int device : timeline.devices()) {
      List<Track> tracks = timeline.tracks().stream().filter(t -> t.device() == device).toList();
      text(body, 8, lanesBottom + 15, "start", "bold", tracks.get(0).deviceName());
      lanesBottom += HEADER;
      for (Track track : tracks) {
        laneTops.put(track, lanesBottom);
        lane(body, track, lanesBottom);
        lanesBottom += LANE + GAP;
      }
    }
    arrows(body);
    int height = lanesBottom + 90;
    svg.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        .append(
            String.format(
                Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                    + " viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">%n",
                WIDTH,
                height,
                WIDTH,
                height))
        .append(DEFS)
        .append(
            String.format("<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", WIDTH, height));
    text(svg, 8, 24, "start", "bold", title);
    axis(lanesBottom);
    svg.append(body);
    legend(lanesBottom + 68);
    return svg.append("</svg>\n").toString();
  }

  private void lane(StringBuilder out, Track track, int y) {
    text(out, LEFT - 8, y + 13, "end", "normal", track.title());
    out.append(
        String.format(
            Locale.ROOT,
            "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#f2f2f2\"/>%n",
            LEFT,
            y,
            PLOT,
            LANE));
    List<ReplaySpan> replays = timeline.replaysOf(track);
    for (ReplaySpan replay : replays) {
      SvgReplays.outline(out, replay, x(replay.startNanos()), x(replay.endNanos()), y, LANE);
    }
    List<Collective> collectives = timeline.collectivesOf(track);
    for (Collective collective : collectives) {
      SvgCollectives.draw(out, collective, this::x, y, LANE);
    }
    for (Wait wait : visible(timeline.waitsOf(track))) {
      out.append(
          String.format(
              Locale.ROOT,
              "<rect class=\"wait\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\""
                  + " fill=\"url(#wait)\"><title>%s</title></rect>%n",
              x(wait.startNanos()),
              y + 3,
              x(wait.endNanos()) - x(wait.startNanos()),
              LANE - 6,
              escape(waitTip(wait))));
    }
    List<Span> spans = timeline.spansOf(track);
    int i = 0;
    while (i < spans.size()) {
      Span first = spans.get(i);
      double x0 = x(first.startNanos());
      double x1 = x(first.endNanos());
      long busy = first.durationNanos();
      int j = i + 1;
      while (j < spans.size() && mergeable(first, spans.get(j), x1)) {
        x1 = Math.max(x1, x(spans.get(j).endNanos()));
        busy += spans.get(j).durationNanos();
        j++;
      }
      String tip =
          j - i == 1
              ? String.format(Locale.ROOT, "%s: %.3f ms", first.name(), busy / 1e6)
              : String.format(Locale.ROOT, "%d x %s: %.3f ms", j - i, first.kind(), busy / 1e6);
      kernel(out, first, x0, Math.max(0.5, x1 - x0), y, tip);
      i = j;
    }
    for (ReplaySpan replay : replays) {
      SvgReplays.label(out, replay, x(replay.startNanos()), x(replay.endNanos()), y);
    }
    for (Collective collective : collectives) {
      SvgCollectives.label(out, collective, this::x, y);
    }
  }

  /**
   * Whether {@code next} joins the rectangle of {@code first} that ends at {@code x1}: only
   * sub-pixel kernels of one kind, less than half a pixel apart, and never failed ones.
   */
  private boolean mergeable(Span first, Span next, double x1) {
    return !first.failed()
        && !next.failed()
        && next.kind().equals(first.kind())
        && x(first.endNanos()) - x(first.startNanos()) < 1
        && x(next.endNanos()) - x(next.startNanos()) < 1
        && x(next.startNanos()) - x1 < 0.5;
  }

  /** An arrow per visible wait, from the end of the kernel that released it to the wait's end. */
  private void arrows(StringBuilder out) {
    for (Wait wait : visible(timeline.waits())) {
      Track from = timeline.trackOf(wait.cause());
      Track to = timeline.tracks().stream().filter(t -> t.holds(wait)).findFirst().orElseThrow();
      out.append(
          String.format(
              Locale.ROOT,
              "<line class=\"dependency\" x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\""
                  + " stroke=\"#c0392b\" stroke-width=\"0.8\" stroke-opacity=\"0.6\""
                  + " marker-end=\"url(#arrow)\"/>%n",
              x(wait.cause().endNanos()),
              laneTops.get(from) + LANE / 2,
              x(wait.endNanos()),
              laneTops.get(to) + LANE / 2));
    }
  }

  private List<Wait> visible(List<Wait> waits) {
    return waits.stream().filter(w -> x(w.endNanos()) - x(w.startNanos()) >= MIN_WAIT).toList();
  }

  private String waitTip(Wait wait) {
    return String.format(
        Locale.ROOT,
        "wait %.3f ms, released by %s: %s",
        wait.durationNanos() / 1e6,
        timeline.trackOf(wait.cause()).title(),
        wait.cause().name());
  }

  private void kernel(StringBuilder out, Span span, double x, double width, int y, String tip) {
    String stroke =
        span.failed()
            ? " stroke=\"#d00\" stroke-width=\"1.5\""
            : width > 3 ? " stroke=\"white\" stroke-width=\"0.5\"" : "";
    out.append(
        String.format(
            Locale.ROOT,
            "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\"%s><title>%s</title></rect>%n",
            x,
            y + 1,
            width,
            LANE - 2,
            color(span.kind()),
            stroke,
            escape(tip)));
  }

  private void axis(int y) {
    double spanMs = Math.max(1, timeline.endNanos() - origin) / 1e6;
    double step = niceStep(spanMs / 8);
    int decimals = step >= 1 ? 0 : (int) Math.ceil(-Math.log10(step));
    svg.append(line(LEFT, y + 4, LEFT + PLOT, y + 4, "#333"));
    for (int k = 0; k * step <= spanMs + 1e-9; k++) {
      double x = LEFT + k * step * 1e6 / nanosPerPixel;
      svg.append(line(x, TOP, x, y + 4, "#e0e0e0")).append(line(x, y + 4, x, y + 9, "#333"));
      String label = String.format(Locale.ROOT, "%." + decimals + "f", k * step);
      text(svg, x, y + 22, "middle", "normal", label);
    }
    text(svg, LEFT + PLOT / 2.0, y + 42, "middle", "normal", "time since the first kernel (ms)");
  }

  private void legend(int y) {
    double x = LEFT;
    for (String kind : kinds) {
      svg.append(
          String.format(
              Locale.ROOT,
              "<rect x=\"%.1f\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>%n",
              x,
              y - 10,
              color(kind)));
      text(svg, x + 16, y, "start", "normal", kind);
      x += 40 + 7 * kind.length();
    }
    if (!timeline.waits().isEmpty()) {
      svg.append(
          String.format(
              Locale.ROOT,
              "<rect x=\"%.1f\" y=\"%d\" width=\"12\" height=\"12\" fill=\"url(#wait)\"/>%n",
              x,
              y - 10));
      String label = "wait, and the kernel end that released it";
      text(svg, x + 16, y, "start", "normal", label);
      x += 40 + 7 * label.length();
    }
    if (!timeline.replays().isEmpty()) {
      x = SvgReplays.legend(svg, x, y);
    }
    if (!timeline.collectives().isEmpty()) {
      SvgCollectives.legend(svg, x, y);
    }
  }

  private String color(String kind) {
    int index = kinds.indexOf(kind);
    return PALETTE[Math.max(0, index) % PALETTE.length];
  }

  private double x(long nanos) {
    return LEFT + (nanos - origin) / nanosPerPixel;
  }

  /** The smallest of 1, 2 or 5 times a power of ten that is at least {@code raw}. */
  static double niceStep(double raw) {
    double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
    for (double factor : new double[] {1, 2, 5, 10}) {
      if (factor * magnitude >= raw * (1 - 1e-9)) {
        return factor * magnitude;
      }
    }
    return 10 * magnitude;
  }
}
