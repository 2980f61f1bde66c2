package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.spi.DeviceWork;
import java.util.concurrent.CompletableFuture;

/**
 * An entry of a stream's queue, run by its {@link StreamActor} in enqueue order, one step per kind
 * (the actor picks it from the item's type). Each item knows how it is settled when the stream
 * stops before running it ({@link #reject}). A record is its {@link Generation} itself, so
 * recording an event allocates no wrapper. Internal.
 */
sealed interface WorkItem
    permits WorkItem.HostWork, WorkItem.DeviceCommand, WorkItem.Wait, WorkItem.Sync, Generation {

  /** Settles this item without running it: the stream has stopped. */
  void reject(DeviceExecutionException failure);

  /**
   * The name of {@code item} if it is a kernel or a copy (Java work, or device work); null for a
   * record, a wait or a synchronize, which take no time of their own.
   */
  static String workName(WorkItem item) {
    if (item instanceof HostWork work) {
      return work.name();
    }
    return item instanceof DeviceCommand command ? command.name() : null;
  }

  /** Java code run on the device thread: a kernel, a copy or a buffer kernel. */
  @FunctionalInterface
  interface Body {
    Object run() throws Exception;
  }

  /**
   * Java code run on the device thread (its {@link Body} is the item itself, so a launch allocates
   * no wrapper); its value or failure completes {@link #result} when that is not null.
   */
  sealed interface HostWork extends WorkItem, Body
      permits Launch, HostKernel, MappedKernel, Segment {
    String name();

    CompletableFuture<Object> result();
  }

  /** A launched {@link Runnable}: nobody waits for its value. */
  record Launch(String name, Runnable kernel) implements HostWork {
    @Override
    public Object run() {
      kernel.run();
      return null;
    }

    @Override
    public CompletableFuture<Object> result() {
      return null;
    }

    @Override
    public void reject(DeviceExecutionException failure) {}
  }

  /** A Java kernel with a body; its value (or failure) completes {@code result} when not null. */
  record HostKernel(String name, Body body, CompletableFuture<Object> result) implements HostWork {
    @Override
    public Object run() throws Exception {
      return body.run();
    }

    @Override
    public void reject(DeviceExecutionException failure) {
      if (result != null) {
        result.completeExceptionally(failure);
      }
    }
  }

  /**
   * A Java kernel over buffers of the backend's own device memory, which it holds from its launch
   * ({@link dev.openaccel.runtime.spi.DeviceMemory#hold}); its body gives the regions back once it
   * has run, {@code unhold} if it never runs. Nobody waits for its value.
   */
  record MappedKernel(String name, Body body, Runnable unhold) implements HostWork {
    @Override
    public Object run() throws Exception {
      return body.run();
    }

    @Override
    public CompletableFuture<Object> result() {
      return null;
    }

    @Override
    public void reject(DeviceExecutionException failure) {
      unhold.run();
    }
  }

  /**
   * Java kernels of a graph's replay that follow each other on one stream, run as one item: one
   * enqueue, one step, each kernel still run, traced and failed on its own ({@link
   * Kernels#runCounted}). Immutable: every replay enqueues the same segment.
   */
  record Segment(String name, HostWork[] kernels) implements HostWork {
    @Override
    public Object run() {
      throw new UnsupportedOperationException("a segment runs its kernels one by one");
    }

    @Override
    public CompletableFuture<Object> result() {
      return null;
    }

    @Override
    public void reject(DeviceExecutionException failure) {}
  }

  /**
   * Backend device work for the stream's device queue. A copy from a heap buffer ({@code
   * readsHeap}), which the backend stages when it enqueues the copy, is submitted only once no
   * earlier work of the stream that may still fill heap memory is in flight: a copy into a heap
   * buffer ({@code writesHeap}: the backend writes it when the copy ends) or a wait handed to the
   * device (it ends after the copies of the stream it waits for), since the source is read when the
   * copy runs, in stream order. Device kernels in flight write no heap memory and do not hold it.
   */
  record DeviceCommand(String name, DeviceWork work, boolean readsHeap, boolean writesHeap)
      implements WorkItem {
    DeviceCommand(String name, DeviceWork work) {
      this(name, work, false, false);
    }

    /** Never submitted: the backend gives back what the work holds. */
    @Override
    public void reject(DeviceExecutionException failure) {
      work.discard();
    }
  }

  /** The stream takes no further work until {@code generation} completes. */
  record Wait(Generation generation) implements WorkItem {
    @Override
    public void reject(DeviceExecutionException failure) {}
  }

  /**
   * Completes {@code done} when the stream reaches it, with the stream's unreported failure if any.
   */
  record Sync(CompletableFuture<Void> done) implements WorkItem {
    /** Completes {@code done}: normally if {@code failure} is null, else with it. */
    void settle(DeviceExecutionException failure) {
      if (failure == null) {
        done.complete(null);
      } else {
        done.completeExceptionally(failure);
      }
    }

    /** Settles it unrun: with {@code failure}, or passed if null (its stream closed cleanly). */
    @Override
    public void reject(DeviceExecutionException failure) {
      settle(failure);
    }
  }
}
