package dev.openaccel.runtime;

import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * Work captured once from a stream ({@link Stream#beginCapture}) and replayed many times, as a CUDA
 * graph: a DAG of kernels, copies, records and waits over the buffers that were captured. Immutable
 * and thread-safe: any number of threads may {@link #launch} it at once, on streams of their own,
 * each launch independent of the others.
 *
 * <p>A replay runs as the captured work would, in the launching stream's order: it starts after the
 * work enqueued on that stream before it, and work enqueued there after it starts after the replay
 * ended, so a later event record or synchronize of the stream covers it. Records of events in the
 * graph record those events again at each replay. A failing kernel fails its replay's stage with a
 * {@link DeviceExecutionException} naming the kernel, and is reported by the stream as a kernel's
 * failure is; the next replay runs normally. Keep the graph's buffers open while its replays run.
 */
public interface Graph {

  /**
   * Enqueues one replay on {@code stream} (lane 0; every other lane on a stream of its own of the
   * lane's device) and returns at once.
   *
   * @return completes when the replay has ended, exceptionally with the first failure of its work
   * @throws IllegalArgumentException if {@code stream} is of another device than lane 0's
   * @throws IllegalStateException if a buffer the graph uses was closed (naming it and the node),
   *     or if {@code stream} is being captured or accepts no more work
   */
  CompletionStage<Void> launch(Stream stream);

  /**
   * A graph like this one, whose Java kernel over buffers at node {@code node} runs over {@code
   * buffers} instead of the buffers it was captured with (as CUDA's kernel node parameters are set
   * between launches). This graph is unchanged.
   *
   * @throws IllegalArgumentException if the node is not a Java kernel over buffers, or {@code
   *     buffers} are not as many as its buffers, each of the same size and device as the one it
   *     replaces (naming the node and the buffer)
   * @throws IllegalStateException if one of {@code buffers} is closed
   */
  Graph withBuffers(int node, DeviceBuffer... buffers);

  /**
   * A graph like this one, whose device kernel at node {@code node} takes {@code arguments}
   * (scalars and buffers, as its launch took them) instead of the captured ones. This graph is
   * unchanged.
   *
   * @throws IllegalArgumentException if the node is not a device kernel, or the backend rejects the
   *     arguments (a buffer of another size or device, a scalar of another type), naming them
   * @throws UnsupportedOperationException if the backend cannot change a captured kernel's
   *     arguments
   */
  Graph withArguments(int node, Object... arguments);

  /** The nodes, in capture order. */
  List<GraphNode> nodes();

  /** How replays run on the backend, e.g. {@code "engine: 3 lanes, 12 nodes"}. */
  String description();

  /** The graph in Graphviz DOT form: one node per {@link GraphNode}, one edge per dependency. */
  String toDot();
}
