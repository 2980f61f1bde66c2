package dev.openaccel.runtime;

/**
 * A stream in capture mode, as in {@code torch.cuda.graph}: what is enqueued on it until {@link
 * #end} is recorded into a {@link Graph}, not run. Other streams join the capture by waiting for an
 * event recorded on a captured stream ({@link Stream#waitEvent}, {@link Event#block}) or for a
 * captured stream ({@link Stream#waitStream}), and must be joined back into the capturing stream
 * (it waits for their last work) before the capture ends.
 *
 * <pre>{@code
 * Graph graph;
 * try (GraphCapture capture = stream.beginCapture()) {
 *   stream.launch("scale", scale);
 *   fork.record(stream);
 *   side.waitEvent(fork);                 // side joins the capture
 *   side.launch("bias", bias);
 *   join.record(side);
 *   stream.waitEvent(join);               // and is joined back
 *   graph = capture.end();
 * }
 * graph.launch(stream);
 * }</pre>
 *
 * <p>While a stream is captured, calls that would observe or wait for its work throw {@link
 * IllegalStateException} containing "operation not permitted when stream is capturing", naming the
 * call: synchronizing or querying a captured stream, its device or an event recorded in the
 * capture, allocating on or freeing a buffer through a captured stream, waiting on an event
 * recorded outside the capture, a {@code submit} (its result would belong to one replay) or a wait
 * for an external stage. The stream stays usable: such a call changes nothing. Closing a capture
 * that did not {@link #end} discards it, and the streams go back to running their work.
 */
public interface GraphCapture extends AutoCloseable {

  /** The capturing stream: lane 0 of the graph. */
  Stream stream();

  /**
   * Ends the capture and returns the graph. Every stream that joined must have been joined back.
   *
   * @throws IllegalStateException if a joined stream has work the capturing stream does not wait
   *     for, naming it (the capture is discarded), or if the capture already ended
   */
  Graph end();

  /** Discards the capture if it did not end; a no-op after {@link #end}. Idempotent. */
  @Override
  void close();
}
