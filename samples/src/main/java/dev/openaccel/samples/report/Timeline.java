package dev.openaccel.samples.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.stream.LongStream;

/**
 * Kernel spans, the graph replays that enclose them, the collective operations with the pieces they
 * sent, the waits between them and device memory, arranged in lanes: the model that {@link
 * ChromeTrace} and {@link SvgTimeline} draw. Lanes are the given tracks in order, followed by a
 * lane for any stream that ran a span or a collective operation but was not named (labelled {@code
 * stream <id>}). Immutable.
 */
public final class Timeline {
  private final List<Track> tracks;
  private final List<Span> spans;
  private final List<Wait> waits;
  private final List<ReplaySpan> replays;
  private final List<Collective> collectives;
  private final List<MemorySample> memory;

  /** A timeline of {@code spans} alone, laid out on {@code tracks}. */
  public Timeline(List<Track> tracks, List<Span> spans) {
    this(tracks, TraceLog.of(spans));
  }

  /**
   * A timeline of what {@code log} holds, laid out on {@code tracks}; waits per {@link Waits},
   * replays per {@link Replays}, collective operations as the log paired them.
   */
  public Timeline(List<Track> tracks, TraceLog log) {
    List<Track> lanes = new ArrayList<>(Objects.requireNonNull(tracks, "tracks"));
    List<Span> sorted = new ArrayList<>(log.spans());
    sorted.sort(Comparator.comparingLong(Span::startNanos));
    List<Collective> operations = new ArrayList<>(log.collectives());
    operations.sort(Comparator.comparingLong(Collective::startNanos));
    for (Span span : sorted) {
      addLane(lanes, span.device(), span.streamId());
    }
    for (Collective operation : operations) {
      addLane(lanes, operation.device(), operation.streamId());
    }
    this.tracks = List.copyOf(lanes);
    this.spans = List.copyOf(sorted);
    this.waits = Waits.infer(sorted, operations, log.dependencies());
    this.replays = Replays.place(sorted, log.replays());
    this.collectives = List.copyOf(operations);
    List<MemorySample> samples = new ArrayList<>(log.memory());
    samples.sort(Comparator.comparingLong(MemorySample::atNanos));
    this.memory = List.copyOf(samples);
  }

  /** Adds a lane for the stream unless one holds it, named after its device's first lane. */
  private static void addLane(List<Track> lanes, int device, long streamId) {
    if (lanes.stream().anyMatch(t -> t.device() == device && t.streamId() == streamId)) {
      return;
    }
    String name =
        lanes.stream()
            .filter(t -> t.device() == device)
            .map(Track::deviceName)
            .findFirst()
            .orElse("device " + device);
    lanes.add(new Track(device, name, streamId, "stream " + streamId));
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

  /** The collective operations, by start time. */
  public List<Collective> collectives() {
    return collectives;
  }

  /** The collective operations enqueued on one lane's stream, by start time. */
  public List<Collective> collectivesOf(Track track) {
    return collectives.stream().filter(track::holds).toList();
  }

  /** Device memory over time, by time. */
  public List<MemorySample> memory() {
    return memory;
  }

  /** The lane of the stream that ran {@code span}. */
  public Track trackOf(Span span) {
    return tracks.stream().filter(t -> t.holds(span)).findFirst().orElseThrow();
  }

  /** The lane of the stream {@code collective} was enqueued on. */
  public Track trackOf(Collective collective) {
    return tracks.stream().filter(t -> t.holds(collective)).findFirst().orElseThrow();
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

  /** The start of the first span or collective operation; 0 for an empty timeline. */
  public long originNanos() {
    return LongStream.concat(
            spans.stream().mapToLong(Span::startNanos),
            collectives.stream().mapToLong(Collective::startNanos))
        .min()
        .orElse(0);
  }

  /** The end of the last span or collective operation; 0 for an empty timeline. */
  public long endNanos() {
    return LongStream.concat(
            spans.stream().mapToLong(Span::endNanos),
            collectives.stream().mapToLong(Collective::endNanos))
        .max()
        .orElse(0);
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
