package dev.openaccel.conformance;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Gates that hold a test's kernels back until the test opens them; every wait is bounded. */
public final class Gates {
  /** How long a kernel waits for its gate before it fails. */
  public static final Duration WAIT = Duration.ofSeconds(10);

  private Gates() {}

  /** Waits for {@code gate} inside a kernel; fails the kernel if it does not open within WAIT. */
  public static void await(CountDownLatch gate) {
    try {
      if (!gate.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new IllegalStateException("latch not opened within " + WAIT);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for a latch", e);
    }
  }
}
