package dev.openaccel.samples.report;

import java.util.List;
import java.util.Objects;

/**
 * One replay of a graph placed on its launching stream's lane (see {@link Replays}): from the start
 * of its first kernel on that stream to the end of its last, with those kernels.
 *
 * @param device the device index
 * @param streamId the launching stream's id on that device
 * @param graphId the graph's id
 * @param replay the replay's number within its graph, from 1
 * @param failed whether a kernel or copy of it failed
 * @param kernels its kernels on the launching stream, by start time; at least one
 */
public record ReplaySpan(
    int device, long streamId, long graphId, long replay, boolean failed, List<Span> kernels) {
  public ReplaySpan {
    kernels = List.copyOf(Objects.requireNonNull(kernels, "kernels"));
    if (kernels.isEmpty()) {
      throw new IllegalArgumentException(
          "replay " + replay + " of graph " + graphId + " has no kernels to span");
    }
  }

  /** What pictures call it: {@code graph 3 replay 17}. */
  public String name() {
    return "graph " + graphId + " replay " + replay;
  }

  /** When its first kernel started. */
  public long startNanos() {
    return kernels.get(0).startNanos();
  }

  /** When its last kernel ended. */
  public long endNanos() {
    return kernels.stream().mapToLong(Span::endNanos).max().orElseThrow();
  }

  /** From its first kernel's start to its last kernel's end. */
  public long durationNanos() {
    return endNanos() - startNanos();
  }
}
