package dev.openaccel.testkit;

import dev.openaccel.runtime.Stream;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * Holds streams still for a test: work enqueued on a held stream after the hold waits until the
 * hold is released, so a test can enqueue work, look at it waiting ({@link Stream#query()} is
 * false, {@link Stream#pendingWork()} counts it), and then let it run in order. Work enqueued
 * before the hold is not held.
 *
 * <pre>{@code
 * try (StreamHold hold = StreamHold.on(stream)) {
 *   stream.launch("step", step);
 *   assertFalse(stream.query());
 * } // released: "step" runs
 * }</pre>
 *
 * <p>A hold is {@link Stream#waitFor} on a stage that {@link #release} completes: the stream is
 * parked, no thread blocks, and the wait is one work item of the stream's queue until released. A
 * hold never released leaves its streams with unfinished work, which {@link OpenAccelTest}'s check
 * reports.
 *
 * <p>Owns: {@code gate}, completed once by the first {@link #release}. This class is thread-safe.
 */
public final class StreamHold implements AutoCloseable {
  private final List<Stream> streams;
  private final CompletableFuture<Void> gate;

  private StreamHold(List<Stream> streams, CompletableFuture<Void> gate) {
    this.streams = streams;
    this.gate = gate;
  }

  /**
   * Holds {@code stream}: work enqueued on it after this call waits until {@link #release}.
   *
   * @throws NullPointerException if {@code stream} is null
   * @throws IllegalStateException as {@link Stream#waitFor} does: containing "accepts no more work"
   *     once the stream or its accelerator closed
   */
  public static StreamHold on(Stream stream) {
    return onAll(Objects.requireNonNull(stream, "stream"));
  }

  /**
   * Holds every stream of {@code streams} with one hold, which {@link #release} lets go of at once.
   * If a stream refuses the hold, the streams held before it are released before the exception
   * leaves this call, so nothing stays held.
   *
   * @throws NullPointerException if {@code streams} or one of them is null
   * @throws IllegalArgumentException if {@code streams} is empty
   * @throws IllegalStateException as {@link Stream#waitFor} does: containing "accepts no more work"
   *     once a stream or its accelerator closed
   */
  public static StreamHold onAll(Stream... streams) {
    Objects.requireNonNull(streams, "streams");
    if (streams.length == 0) {
      throw new IllegalArgumentException("a hold needs at least one stream, got none");
    }
    List<Stream> held = new ArrayList<>(streams.length);
    for (int i = 0; i < streams.length; i++) {
      held.add(Objects.requireNonNull(streams[i], "streams[" + i + "]"));
    }
    CompletableFuture<Void> gate = new CompletableFuture<>();
    try {
      held.forEach(stream -> stream.waitFor(gate));
    } catch (RuntimeException refused) {
      gate.complete(null);
      throw refused;
    }
    return new StreamHold(List.copyOf(held), gate);
  }

  /** The held streams, in the order given. */
  public List<Stream> streams() {
    return streams;
  }

  /** Whether {@link #release} (or {@link #close}) was called. */
  public boolean isReleased() {
    return gate.isDone();
  }

  /**
   * Lets the held streams go on: the work enqueued after the hold runs, in each stream's order.
   * Idempotent; may be called from any thread.
   */
  public void release() {
    gate.complete(null);
  }

  /** {@link #release}; idempotent. */
  @Override
  public void close() {
    release();
  }

  @Override
  public String toString() {
    return "StreamHold(" + (isReleased() ? "released" : "holding") + " " + streams + ")";
  }
}
