package dev.openaccel.benchmarks.support;

import java.util.function.BooleanSupplier;

/**
 * Busy waits. The machines these benchmarks target have two cores, so a waiter that never gives up
 * its core can starve the very thread it waits for: every wait here yields now and then.
 */
public final class Spin {
  private static final long LIMIT_NANOS = 10_000_000_000L;
  private static final int SPINS_PER_YIELD = 128;

  private Spin() {}

  /**
   * Returns once {@code condition} holds.
   *
   * @throws IllegalStateException naming {@code what} if it does not hold within 10 seconds
   */
  public static void until(BooleanSupplier condition, String what) {
    long deadline = System.nanoTime() + LIMIT_NANOS;
    int spins = 0;
    while (!condition.getAsBoolean()) {
      if (++spins % SPINS_PER_YIELD == 0) {
        Thread.yield();
        if (System.nanoTime() - deadline > 0) {
          throw new IllegalStateException("gave up after 10 s waiting for " + what);
        }
      } else {
        Thread.onSpinWait();
      }
    }
  }

  /**
   * Lets other threads run for {@code nanos} by the monotonic clock, yielding the core in a loop:
   * on two cores, a thread that is still finishing its work gets a core meanwhile.
   */
  public static void yieldFor(long nanos) {
    long start = System.nanoTime();
    while (System.nanoTime() - start < nanos) {
      Thread.yield();
    }
  }

  /** Keeps the calling thread busy for {@code nanos} by the monotonic clock. */
  public static void busyFor(long nanos) {
    long start = System.nanoTime();
    while (System.nanoTime() - start < nanos) {
      Thread.onSpinWait();
    }
  }
}
