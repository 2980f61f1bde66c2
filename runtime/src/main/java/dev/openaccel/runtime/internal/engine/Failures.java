package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.DeviceExecutionException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** How the engine turns failures of device work into exceptions for its callers. Internal. */
final class Failures {
  private Failures() {}

  /**
   * A copy of {@code failure} to throw on the caller's thread: same message, cause and suppressed.
   * The original is shared (events recorded after a failure hold it), so it is never thrown or
   * changed.
   */
  static DeviceExecutionException copy(DeviceExecutionException failure) {
    DeviceExecutionException copy =
        new DeviceExecutionException(failure.getMessage(), failure.getCause());
    for (Throwable suppressed : failure.getSuppressed()) {
      copy.addSuppressed(suppressed);
    }
    return copy;
  }

  /** {@code cause} as a device failure, for aggregation. */
  static DeviceExecutionException asExecutionFailure(Throwable cause) {
    Throwable unwrapped = cause;
    while (unwrapped instanceof CompletionException && unwrapped.getCause() != null) {
      unwrapped = unwrapped.getCause(); // a dependent stage's wrapper says nothing of its own
    }
    return unwrapped instanceof DeviceExecutionException failure
        ? failure
        : new DeviceExecutionException(String.valueOf(unwrapped), unwrapped);
  }

  /** {@code earlier} with {@code next} added: a new exception, since {@code earlier} is shared. */
  static DeviceExecutionException merge(
      DeviceExecutionException earlier, DeviceExecutionException next) {
    if (earlier == null) {
      return next;
    }
    DeviceExecutionException both = copy(earlier);
    both.addSuppressed(next);
    return both;
  }

  /**
   * Blocks the calling (non-device) thread until {@code work} completes and rethrows its failure.
   *
   * @param what names the wait in the exception if the thread is interrupted
   */
  static void await(CompletableFuture<?> work, String what) {
    try {
      work.get();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof DeviceExecutionException failure) {
        throw copy(failure);
      }
      if (cause instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new DeviceExecutionException(String.valueOf(cause), cause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for " + what, e);
    }
  }
}
