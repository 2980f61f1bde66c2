package dev.openaccel.cluster;

import dev.openaccel.runtime.DeviceExecutionException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;

/**
 * How exceptions cross nodes: as a kind and a message in a {@link GatewayProtocol.Failed}, raised
 * again on the requester with the same JDK type and a message that names the node. Internal.
 */
final class Failures {
  private Failures() {}

  /** Completes {@code to} as {@code from} completes, a failure unwrapped ({@link #unwrap}). */
  static <T> void relay(CompletionStage<T> from, CompletableFuture<? super T> to) {
    from.whenComplete(
        (value, failure) -> {
          if (failure == null) {
            to.complete(value);
          } else {
            to.completeExceptionally(unwrap(failure));
          }
        });
  }

  /** The failure inside a stage's wrapper exceptions. */
  static Throwable unwrap(Throwable failure) {
    Throwable inner = failure;
    while ((inner instanceof CompletionException || inner instanceof ExecutionException)
        && inner.getCause() != null) {
      inner = inner.getCause();
    }
    return inner;
  }

  /** The reply that carries {@code failure} to the requester. */
  static GatewayProtocol.Failed reply(long requestId, Throwable failure) {
    Throwable inner = unwrap(failure);
    String kind;
    if (inner instanceof IllegalArgumentException) {
      kind = "argument";
    } else if (inner instanceof IllegalStateException) {
      kind = "state";
    } else if (inner instanceof UnsupportedOperationException) {
      kind = "unsupported";
    } else {
      kind = "execution";
    }
    return new GatewayProtocol.Failed(requestId, kind, String.valueOf(inner.getMessage()));
  }

  /** The exception to raise on the requester for {@code failed}, answered by {@code node}. */
  static RuntimeException raise(GatewayProtocol.Failed failed, String node) {
    String message = "on node " + node + ": " + failed.message();
    return switch (failed.kind()) {
      case "argument" -> new IllegalArgumentException(message);
      case "state" -> new IllegalStateException(message);
      case "unsupported" -> new UnsupportedOperationException(message);
      default -> new DeviceExecutionException(message);
    };
  }

  /**
   * {@code stage}, whose failure becomes a {@link DeviceExecutionException} whose message starts
   * with {@code what} (e.g. "event 7 of node X"), so that a stream that waited on it names it.
   */
  static <T> CompletionStage<T> naming(CompletionStage<T> stage, String what) {
    CompletableFuture<T> named = new CompletableFuture<>();
    stage.whenComplete(
        (value, failure) -> {
          if (failure == null) {
            named.complete(value);
          } else {
            Throwable inner = unwrap(failure);
            named.completeExceptionally(
                new DeviceExecutionException(what + ": " + inner.getMessage(), inner));
          }
        });
    return named;
  }

  /** What everything waiting on {@code node} fails with once it has left the cluster. */
  static DeviceExecutionException nodeLeft(String node, String why) {
    return new DeviceExecutionException("node " + node + " left the cluster: " + why);
  }

  /** {@code failure} as an unchecked exception to throw on a caller's thread. */
  static RuntimeException rethrow(Throwable failure) {
    Throwable inner = unwrap(failure);
    if (inner instanceof RuntimeException runtime) {
      return runtime;
    }
    if (inner instanceof Error error) {
      throw error;
    }
    return new DeviceExecutionException(String.valueOf(inner), inner);
  }

  /** The stage {@code body} returns, or a failed stage if it throws. */
  static <T> CompletionStage<T> guard(Supplier<? extends CompletionStage<T>> body) {
    try {
      return body.get();
    } catch (RuntimeException e) {
      return CompletableFuture.failedStage(e);
    }
  }
}
