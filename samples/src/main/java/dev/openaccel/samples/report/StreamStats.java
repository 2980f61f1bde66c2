package dev.openaccel.samples.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * How busy one lane of a {@link Timeline} was.
 *
 * @param track the lane
 * @param kernels how many kernels (copies included) it ran
 * @param busyNanos the sum of their durations
 */
public record StreamStats(Track track, int kernels, long busyNanos) {

  /** The stats of every lane of {@code timeline}, in lane order. */
  public static List<StreamStats> of(Timeline timeline) {
    List<StreamStats> stats = new ArrayList<>();
    for (Track track : timeline.tracks()) {
      List<Span> spans = timeline.spansOf(track);
      stats.add(
          new StreamStats(
              track, spans.size(), spans.stream().mapToLong(Span::durationNanos).sum()));
    }
    return List.copyOf(stats);
  }

  /**
   * How much of the time of {@code spans} passed while at least one of {@code cover} was running:
   * for copies against compute kernels, the copy time that overlap hid.
   */
  public static long coveredNanos(List<Span> spans, List<Span> cover) {
    List<long[]> union = union(cover);
    long covered = 0;
    for (Span span : spans) {
      for (long[] interval : union) {
        long from = Math.max(span.startNanos(), interval[0]);
        long to = Math.min(span.endNanos(), interval[1]);
        if (to > from) {
          covered += to - from;
        }
      }
    }
    return covered;
  }

  /** The union of the spans' intervals as sorted, disjoint {@code [from, to)} pairs. */
  private static List<long[]> union(List<Span> spans) {
    List<Span> sorted = new ArrayList<>(spans);
    sorted.sort(Comparator.comparingLong(Span::startNanos));
    List<long[]> union = new ArrayList<>();
    for (Span span : sorted) {
      long[] last = union.isEmpty() ? null : union.get(union.size() - 1);
      if (last != null && span.startNanos() <= last[1]) {
        last[1] = Math.max(last[1], span.endNanos());
      } else {
        union.add(new long[] {span.startNanos(), span.endNanos()});
      }
    }
    return union;
  }
}
