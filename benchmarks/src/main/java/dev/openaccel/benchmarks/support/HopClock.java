package dev.openaccel.benchmarks.support;

import java.util.Arrays;

/**
 * Hops timed by the kernels themselves: a benchmark adds, for each hop, the nanoseconds from the
 * end of the kernel the hop leaves to the start of the kernel it reaches, both read with {@code
 * System.nanoTime()} on the device threads; {@link HopClockProfiler} reports their percentiles per
 * iteration. One writer (the benchmark thread) and one reader (the profiler, after the iteration's
 * threads have stopped).
 */
public final class HopClock {
  private static long[] nanos = new long[1 << 16];
  private static int count;

  private HopClock() {}

  /** Adds one hop of {@code hopNanos}. */
  public static void add(long hopNanos) {
    if (count == nanos.length) {
      nanos = Arrays.copyOf(nanos, count * 2);
    }
    nanos[count++] = hopNanos;
  }

  static void clear() {
    count = 0;
  }

  static int count() {
    return count;
  }

  /** The {@code percentile}-th (0 to 100) of the hops added since the last clear; count > 0. */
  static double percentile(double percentile) {
    long[] sorted = Arrays.copyOf(nanos, count);
    Arrays.sort(sorted);
    int index = (int) Math.ceil(percentile / 100 * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
  }
}
