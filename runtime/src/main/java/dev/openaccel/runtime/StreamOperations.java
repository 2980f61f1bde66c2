package dev.openaccel.runtime;

import java.nio.ByteBuffer;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * What a backend's stream does behind the public {@link Stream} value: enqueue work and report
 * progress. A backend implements it as {@link Stream.Ops}, one per stream.
 *
 * <p>Implementations are thread-safe: any thread may enqueue; work runs in enqueue order. The
 * default methods keep a backend written before they existed compiling and honest: it reports what
 * it cannot do with {@link UnsupportedOperationException}.
 */
public interface StreamOperations {

  /** A new event of this stream's backend, for {@link Stream#recordEvent()}. */
  Event newEvent(EventOptions options);

  /** True when all work enqueued so far has completed. Must not send a message. */
  boolean query();

  /**
   * How many work items enqueued so far have not completed. Must not send a message.
   *
   * @throws UnsupportedOperationException by default: a backend that does not count its items
   */
  default long pendingWork() {
    throw new UnsupportedOperationException(getClass().getName() + " doesn't support pendingWork");
  }

  /** Blocks until the work enqueued so far has completed; throws its failure if any. */
  void synchronize();

  /** Completes when the work enqueued so far has completed, exceptionally with its failure. */
  CompletionStage<Void> synchronizeAsync();

  /** Enqueues a kernel; waits for room in a full queue. */
  void launch(String name, Runnable kernel);

  /**
   * Enqueues a kernel once the queue has room; the stage completes then. Never blocks. By default,
   * for a backend whose queue has no bound: {@link #launch}, then a completed stage.
   */
  default CompletionStage<Void> launchAsync(String name, Runnable kernel) {
    launch(name, kernel);
    return CompletableFuture.completedFuture(null);
  }

  /** Enqueues a kernel whose result completes the returned stage. */
  <T> CompletionStage<T> submit(String name, Callable<T> kernel);

  /** Enqueues a copy of {@code src}'s remaining bytes into {@code dst}, read when it runs. */
  void copyToDevice(ByteBuffer src, DeviceBuffer dst);

  /** Enqueues a copy of {@code src} into {@code dst} from its position, written when it runs. */
  void copyToHost(DeviceBuffer src, ByteBuffer dst);

  /** Enqueues a device-to-device copy; the buffers may live on different devices. */
  void copy(DeviceBuffer src, DeviceBuffer dst);

  /** Enqueues a kernel that works on {@code buffers}. */
  void launch(String name, Kernel kernel, DeviceBuffer... buffers);

  /** Work enqueued here after this call waits for work enqueued on {@code other} before it. */
  void waitFor(Stream other);

  /** Work enqueued here after this call waits until {@code signal} completes. */
  void waitFor(CompletionStage<?> signal);

  /**
   * Closes the stream: see {@link Stream#close}.
   *
   * @throws UnsupportedOperationException by default: a backend whose streams cannot be closed
   */
  default void close() {
    throw new UnsupportedOperationException(getClass().getName() + " doesn't support close");
  }
}
