package dev.openaccel.runtime.spi;

import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Kernel;
import dev.openaccel.runtime.Stream;
import java.nio.ByteBuffer;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;

/**
 * What a backend's stream does behind the public {@link Stream} value: enqueue work and report
 * progress. A backend creates streams with {@link Stream#wrap} and one {@code StreamOps} per
 * stream.
 *
 * <p>Implementations are thread-safe: any thread may enqueue; work runs in enqueue order.
 */
public interface StreamOps {

  /** The backend that owns this stream: events recorded on it are created there. */
  DeviceGuardImpl backend();

  /** True when all work enqueued so far has completed. Must not send a message. */
  boolean query();

  /** Blocks until the work enqueued so far has completed; throws its failure if any. */
  void synchronize();

  /** Completes when the work enqueued so far has completed, exceptionally with its failure. */
  CompletionStage<Void> synchronizeAsync();

  /** Enqueues a kernel. */
  void launch(String name, Runnable kernel);

  /** Enqueues a kernel whose result completes the returned stage. */
  <T> CompletionStage<T> submit(String name, Callable<T> kernel);

  /** Enqueues a copy of {@code src}'s remaining bytes into {@code dst}, read when the copy runs. */
  void copyToDevice(ByteBuffer src, DeviceBuffer dst);

  /**
   * Enqueues a copy of {@code src} into {@code dst} from its position, written when the copy runs.
   */
  void copyToHost(DeviceBuffer src, ByteBuffer dst);

  /** Enqueues a device-to-device copy; the buffers may live on different devices. */
  void copy(DeviceBuffer src, DeviceBuffer dst);

  /** Enqueues a kernel that works on {@code buffers}. */
  void launch(String name, Kernel kernel, DeviceBuffer... buffers);

  /** Work enqueued here after this call waits for work enqueued on {@code other} before it. */
  void waitFor(Stream other);
}
