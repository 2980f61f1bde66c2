package dev.openaccel.samples.report;

/**
 * One replay of a graph as the trace bus saw it: its {@code GraphLaunched} paired with its {@code
 * GraphReplayed}, on the device clock ({@link System#nanoTime()}). The launch is stamped when the
 * host enqueued the replay, so the stream may still have been running earlier work then; {@link
 * Replays} places the replay among the kernels the stream ran.
 *
 * @param device the device index
 * @param streamId the launching stream's id on that device
 * @param graphId the graph's id
 * @param replay the replay's number within its graph, from 1
 * @param launchedNanos when the host enqueued it
 * @param endedNanos when it ended, {@code >= launchedNanos}
 * @param failed whether a kernel or copy of it failed
 */
public record GraphReplay(
    int device,
    long streamId,
    long graphId,
    long replay,
    long launchedNanos,
    long endedNanos,
    boolean failed) {
  public GraphReplay {
    if (endedNanos < launchedNanos) {
      throw new IllegalArgumentException(
          "replay "
              + replay
              + " of graph "
              + graphId
              + " ends at "
              + endedNanos
              + " before it was launched at "
              + launchedNanos);
    }
  }
}
