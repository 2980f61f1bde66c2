package dev.openaccel.samples.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Kernel spans, the graph replays that enclose them, the waits between them and device memory,
 * arranged in lanes: the model that {@link ChromeTrace} and {@link SvgTimeline} draw. Lanes are the
 * given tracks in order, followed by a lane for any stream that ran a span but was not named
 * (labelled {@code stream <id>}). Immutable.
 */
public final class Timeline {
  private final List<Track> tracks;
  private final List<Span> spans;
  private final List<Wait> waits;
  private final List<ReplaySpan> replays;
  private final List<MemorySample> memory;

  /** A timeline of {@code spans} alone, laid out on {@code tracks}. */
  public Timeline(List<Track> tracks, List<Span> spans) {
    this(tracks, TraceLog.of(spans));
  }

  /**
   * A timeline of what {@code log} holds, laid out on {@code tracks}; waits per {@link Waits},
   * replays per {@link Replays}.
   */
  public Timeline(List<Track> tracks, TraceLog log) {
    List<Span> spans = log.spans();
    List<Track> lanes = new ArrayList<>(Objects.requireNonNull(tracks, "tracks"));
    List<Span> sorted = new ArrayList<>(spans);
    sorted.sort(Comparator.comparingLong(Span::startNanos));
    for (Span span : sorted) {
      if (lanes.stream().noneMatch(t -> t.holds(span))) {
        String device =
            tracks.stream()
                .filter(t -> t.device() == span.device())
                .map(Track::deviceName)
                .findFirst()
                .orElse("device " + span.device());
        lanes.add(new Track(span.device(), device, span.streamId(), "stream " + span.streamId()));
      }
    }
    this.tracks = List.copyOf(lanes);
    this.spans = List.copyOf(sorted);
    this.waits = Waits.infer(sorted, log.dependencies());
    this.replays = Replays.place(sorted, log.replays());
    List<MemorySample> samples = new ArrayList<>(log.memory());
    samples.sort(Comparator.comparingLong(MemorySample::atNanos));
    this.memory = List.copyOf(samples);
  }

  /** The waits that explain idle gaps, by start time. */
  public List<Wait> waits() {
    return waits;
  }

  /** The waits of one lane, by start time. */
  public List<Wait> waitsOf(Track track) {
    return waits.stream().filter(track::holds).toList();
  }

  /** The graph replays that ran kernels, by start time. */
  public List<ReplaySpan> replays() {
    return replays;
  }

  /** The replays launched on one lane's stream, by start time. */
  public List<ReplaySpan> replaysOf(Track track) {
    return replays.stream().filter(track::holds).toList();
  }

  /** Device memory over time, by time. */
  public List<MemorySample> memory() {
    return memory;
  }

  /** The lane of the stream that ran {@code span}. */
  public Track trackOf(Span span) {
    return tracks.stream().filter(t -> t.holds(span)).findFirst().orElseThrow();
  }

  /** The lanes, in drawing order. */
  public List<Track> tracks() {
    return tracks;
  }

  /** Every span, by start time. */
  public List<Span> spans() {
    return spans;
  }

  /** The spans of one lane, by start time. */
  public List<Span> spansOf(Track track) {
    return spans.stream().filter(track::holds).toList();
  }

  /** The start of the first span; 0 for an empty timeline. */
  public long originNanos() {
    return spans.isEmpty() ? 0 : spans.get(0).startNanos();
  }

  /** The end of the last span; 0 for an empty timeline. */
  public long endNanos() {
    return spans.stream().mapToLong(Span::endNanos).max().orElse(0);
  }

  /** The distinct device indices, in lane order. */
  public List<Integer> devices() {
    return tracks.stream().map(Track::device).distinct().toList();
  }

  /** The distinct kernel kinds ({@link Span#kind()}), in order of first appearance. */
  public List<String> kinds() {
    return spans.stream().map(Span::kind).distinct().toList();
  }
}
