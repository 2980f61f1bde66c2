package dev.openaccel.cluster;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/** What the measurement mains share: medians of samples, sizes and the machine's load. */
final class Samples {
  private Samples() {}

  /** The median of {@code values} (the mean of the middle two for an even count). */
  static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  /** The smallest of {@code values}. */
  static double min(double[] values) {
    return Arrays.stream(values).min().orElseThrow();
  }

  /** The largest of {@code values}. */
  static double max(double[] values) {
    return Arrays.stream(values).max().orElseThrow();
  }

  /** {@code bytes} as 8 B, 4 KiB, 16 MiB (powers of two print exactly). */
  static String size(long bytes) {
    if (bytes >= 1 << 20 && bytes % (1 << 20) == 0) {
      return (bytes >> 20) + " MiB";
    }
    if (bytes >= 1 << 10 && bytes % (1 << 10) == 0) {
      return (bytes >> 10) + " KiB";
    }
    return bytes + " B";
  }

  /** The 1, 5 and 15 minute load averages ({@code /proc/loadavg}; else the JVM's 1 minute one). */
  static String loadAverage() {
    try {
      String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return fields[0] + " " + fields[1] + " " + fields[2];
    } catch (IOException | RuntimeException e) {
      return String.format(
          "%.2f (1 minute)", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }
  }
}
