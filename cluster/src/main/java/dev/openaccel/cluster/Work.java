package dev.openaccel.cluster;

import dev.openaccel.runtime.Stream;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * One collective operation enqueued on a stream, as c10d's {@code Work}: it completes when its
 * result is in the output buffer (for {@code send}, when its bytes have left; for {@code barrier},
 * when every member reached it). The stream it was enqueued on needs no call: later work there sees
 * the result. Other streams wait with {@link #block(Stream)}. This class is thread-safe.
 *
 * <p>A failure (members that disagree, a member that left or failed, the operation not ended within
 * {@code openaccel.cluster.collectives.op-timeout} of its start, naming the members it waited for)
 * is a {@link dev.openaccel.runtime.DeviceExecutionException} whose message starts with the
 * operation, e.g. {@code "allReduce #4 of group 'grads' on rank 1: ..."}; the stream it ran on
 * reports it too, at what it records next. The output buffer's contents are then unspecified.
 */
public final class Work {
  private final String what;
  private final CompletableFuture<Void> completion;
  private final ActorSystem<?> system;

  Work(String what, CompletableFuture<Void> completion, ActorSystem<?> system) {
    this.what = what;
    this.completion = completion;
    this.system = system;
  }

  /** Completes when the operation has, exceptionally if it failed. Never blocks. */
  public CompletionStage<Void> completion() {
    return completion.minimalCompletionStage();
  }

  /** Whether the operation has ended, successfully or not. Sends no message. */
  public boolean isDone() {
    return completion.isDone();
  }

  /**
   * Blocks until the operation has completed.
   *
   * @throws dev.openaccel.runtime.DeviceExecutionException if it failed
   * @throws IllegalStateException containing "blocking call on an actor thread" on a device thread
   *     or a dispatcher thread of the node (use {@link #completion()})
   */
  public void synchronize() {
    Blocking.await(system, completion, "Work.synchronize", "Work.completion");
  }

  /**
   * Like {@link #synchronize()}, for at most {@code timeout}.
   *
   * @return false if {@code timeout} passed first
   */
  public boolean synchronize(Duration timeout) {
    Objects.requireNonNull(timeout, "timeout");
    return Blocking.await(system, completion, timeout, "Work.synchronize", "Work.completion");
  }

  /**
   * Work enqueued on {@code stream} after this call waits for this operation, as for an event; no
   * thread blocks. A failure reaches what {@code stream} records next.
   */
  public void block(Stream stream) {
    Objects.requireNonNull(stream, "stream").waitFor(completion);
  }

  @Override
  public String toString() {
    return "Work(" + what + (isDone() ? ", done" : "") + ")";
  }
}
