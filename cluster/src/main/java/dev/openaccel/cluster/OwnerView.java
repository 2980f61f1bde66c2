package dev.openaccel.cluster;

import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.EventHandle;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What this node last heard from the owner of an opened event about its latest record, and the
 * requests that ask for it: {@link RemoteEvent#query()} answers from it without blocking and asks
 * for a fresh state in the background, one request at a time; a later request's answer always wins
 * over an earlier one's. Internal.
 *
 * <p>Owns: the request counter, the probing flag and the cached state (under this object's
 * monitor). Thread-safe.
 */
final class OwnerView {
  private final EventHandle handle;
  private final NodePort owner;
  private final AtomicLong requests = new AtomicLong();
  private final AtomicBoolean probing = new AtomicBoolean();
  private long answered; // the request number of the cached state; guarded by this
  private boolean completed; // guarded by this

  OwnerView(EventHandle handle, NodePort owner) {
    this.handle = handle;
    this.owner = owner;
  }

  NodePort owner() {
    return owner;
  }

  /**
   * Asks the owner, waiting at most {@code timeout}, whether the event exists, and caches its
   * state; the stage fails with the owner's error, or names {@code event} if it did not answer.
   */
  CompletionStage<Void> check(Duration timeout, Object event) {
    long request = requests.incrementAndGet();
    return owner
        .latest(handle, false)
        .toCompletableFuture()
        .orTimeout(timeout.toNanos(), TimeUnit.NANOSECONDS)
        .handle(
            (state, failure) -> {
              if (failure == null) {
                observed(request, state.completed());
                return null;
              }
              if (Failures.unwrap(failure) instanceof TimeoutException) {
                throw new DeviceExecutionException(
                    "node "
                        + handle.node()
                        + " did not answer within "
                        + timeout
                        + " about "
                        + event);
              }
              throw Failures.rethrow(failure);
            });
  }

  /** The cached state; asks for a fresh one unless a request is already out. */
  boolean query() {
    if (probing.compareAndSet(false, true)) {
      long request = requests.incrementAndGet();
      owner
          .latest(handle, false)
          .whenComplete(
              (state, failure) -> {
                observed(request, failure != null || state.completed());
                probing.set(false);
              });
    }
    synchronized (this) {
      return completed;
    }
  }

  /** The owner's latest record's completion, fed into the cache. */
  CompletableFuture<NodePort.EventState> latest() {
    long request = requests.incrementAndGet();
    CompletableFuture<NodePort.EventState> result = new CompletableFuture<>();
    owner
        .latest(handle, true)
        .whenComplete(
            (state, failure) -> {
              observed(request, true);
              if (failure == null) {
                result.complete(state);
              } else {
                result.completeExceptionally(named(failure));
              }
            });
    return result;
  }

  /** The failure, as a {@link DeviceExecutionException} that names this event if it did not. */
  DeviceExecutionException named(Throwable failure) {
    Throwable inner = Failures.unwrap(failure);
    String message = String.valueOf(inner.getMessage());
    String event = "event " + handle.eventId();
    if (inner instanceof DeviceExecutionException execution && message.contains(event)) {
      return execution;
    }
    return new DeviceExecutionException(
        event + " of node " + handle.node() + ": " + message, inner);
  }

  private synchronized void observed(long request, boolean done) {
    if (request > answered) {
      answered = request;
      completed = done;
    }
  }
}
