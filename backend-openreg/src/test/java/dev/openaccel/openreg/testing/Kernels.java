package dev.openaccel.openreg.testing;

import java.time.Duration;

/** Kernel bodies shared by the event tests. */
public final class Kernels {
  private Kernels() {}

  /**
   * A kernel that stays busy for at least {@code duration} by the device clock ({@link
   * System#nanoTime()}), so two timing events around it are at least that far apart.
   */
  public static Runnable busy(Duration duration) {
    long nanos = duration.toNanos();
    return () -> {
      long start = System.nanoTime();
      while (System.nanoTime() - start < nanos) {
        Thread.onSpinWait();
      }
    };
  }

  /** A kernel that throws {@code failure}. */
  public static Runnable throwing(RuntimeException failure) {
    return () -> {
      throw failure;
    };
  }
}
