package dev.openaccel.runtime.internal;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

/** An entry of a stream's queue, run by its {@link StreamActor} in enqueue order. Internal. */
sealed interface WorkItem {

  /** Device code; may throw, which fails the kernel. */
  @FunctionalInterface
  interface Body {
    void run() throws Exception;
  }

  /** A kernel without a result. */
  record Launch(String name, Body body) implements WorkItem {}

  /** A kernel whose result (or failure) completes {@code result}. */
  record Submit(String name, Callable<?> body, CompletableFuture<Object> result)
      implements WorkItem {}

  /** Completes {@code generation} when the stream reaches it. */
  record Record(Generation generation) implements WorkItem {}

  /** The stream takes no further work until {@code generation} completes. */
  record Wait(Generation generation) implements WorkItem {}

  /**
   * Completes {@code done} when the stream reaches it, with the stream's unreported failure if any.
   */
  record Sync(CompletableFuture<Void> done) implements WorkItem {}
}
