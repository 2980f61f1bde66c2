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
 */
public record TraceLog(
    List<Span> spans,
    List<Dependency> dependencies,
    List<MemorySample> memory,
    List<GraphReplay> replays) {
  public TraceLog {
    spans = List.copyOf(Objects.requireNonNull(spans, "spans"));
    dependencies = List.copyOf(Objects.requireNonNull(dependencies, "dependencies"));
    memory = List.copyOf(Objects.requireNonNull(memory, "memory"));
    replays = List.copyOf(Objects.requireNonNull(replays, "replays"));
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
