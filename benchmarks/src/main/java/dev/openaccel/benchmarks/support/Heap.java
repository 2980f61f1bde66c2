package dev.openaccel.benchmarks.support;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/**
 * Retained heap, measured the plain way: collect garbage a few times, then read the used heap. Take
 * one reading before creating objects and one while still holding them; the difference over their
 * number is what each one keeps alive.
 */
public final class Heap {
  private static final int COLLECTIONS = 3;
  private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

  private Heap() {}

  /** Bytes of heap in use after full collections. */
  public static long usedAfterGc() {
    for (int i = 0; i < COLLECTIONS; i++) {
      System.gc();
    }
    return MEMORY.getHeapMemoryUsage().getUsed();
  }
}
