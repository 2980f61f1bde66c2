package dev.openaccel.benchmarks.support;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.ref.WeakReference;
import java.time.Duration;

/**
 * Retained heap, measured the plain way: collect garbage a few times, then read the used heap. Take
 * one reading before creating objects and one while still holding them; the difference over their
 * number is what each one keeps alive.
 */
public final class Heap {
  private static final int COLLECTIONS = 3;
  private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

  private Heap() {}

  /**
   * Collects garbage until {@code ref} is cleared, for at most {@code timeout}: a closed
   * accelerator's threads may still be ending after its close returned, and whatever they keep
   * reachable would count in the next reading.
   *
   * @return false if {@code ref} was still set when the time was up
   */
  public static boolean collected(WeakReference<?> ref, Duration timeout)
      throws InterruptedException {
    long until = System.nanoTime() + timeout.toNanos();
    while (true) {
      System.gc();
      if (ref.refersTo(null)) {
        return true;
      }
      if (System.nanoTime() >= until) {
        return false;
      }
      Thread.sleep(10); // threads of the closed system finishing; nothing to be notified of
    }
  }

  /** Bytes of heap in use after full collections. */
  public static long usedAfterGc() {
    for (int i = 0; i < COLLECTIONS; i++) {
      System.gc();
    }
    return MEMORY.getHeapMemoryUsage().getUsed();
  }
}
