package dev.openaccel.samples.report;

import java.util.List;
import java.util.Objects;

/**
 * What a {@link TraceCollector} gathered from the trace bus.
 *
 * @param spans every kernel, by finish order
 * @param dependencies every record -> wait edge whose record and wait both arrived
 * @param memory every change of a device's allocated memory, in arrival order
 * @param replays every graph replay whose launch and end both arrived, by end order
 * @param collectives every collective operation whose end arrived, with its pieces, by end order
 */
public record TraceLog(
    List<Span> spans,
    List<Dependency> dependencies,
    List<MemorySample> memory,
    List<GraphReplay> replays,
    List<Collective> collectives) {
  public TraceLog {
    spans = List.copyOf(Objects.requireNonNull(spans, "spans"));
    dependencies = List.copyOf(Objects.requireNonNull(dependencies, "dependencies"));
    memory = List.copyOf(Objects.requireNonNull(memory, "memory"));
    replays = List.copyOf(Objects.requireNonNull(replays, "replays"));
    collectives = List.copyOf(Objects.requireNonNull(collectives, "collectives"));
  }

  /** What the lists hold, with no collective operations. */
  public TraceLog(
      List<Span> spans,
      List<Dependency> dependencies,
      List<MemorySample> memory,
      List<GraphReplay> replays) {
    this(spans, dependencies, memory, replays, List.of());
  }

  /** What {@code spans}, {@code dependencies} and {@code memory} hold, with no graph replays. */
  public TraceLog(List<Span> spans, List<Dependency> dependencies, List<MemorySample> memory) {
    this(spans, dependencies, memory, List.of());
  }

  /** Kernels only. */
  public static TraceLog of(List<Span> spans) {
    return new TraceLog(spans, List.of(), List.of());
  }
}
