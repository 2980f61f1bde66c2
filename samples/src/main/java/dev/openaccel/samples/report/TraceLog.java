package dev.openaccel.samples.report;

import java.util.List;
import java.util.Objects;

/**
 * What a {@link TraceCollector} gathered from the trace bus.
 *
 * @param spans every kernel, by finish order
 * @param dependencies every record -> wait edge whose record and wait both arrived
 * @param memory every change of a device's allocated memory, in arrival order
 */
public record TraceLog(List<Span> spans, List<Dependency> dependencies, List<MemorySample> memory) {
  public TraceLog {
    spans = List.copyOf(Objects.requireNonNull(spans, "spans"));
    dependencies = List.copyOf(Objects.requireNonNull(dependencies, "dependencies"));
    memory = List.copyOf(Objects.requireNonNull(memory, "memory"));
  }

  /** Kernels only. */
  public static TraceLog of(List<Span> spans) {
    return new TraceLog(spans, List.of(), List.of());
  }
}
