package dev.openaccel.benchmarks.report;

import java.util.Locale;

/** What a table cell measures: fixes its display unit and which direction is better. */
enum Quantity {
  /** Operations per second; higher is better. */
  RATE(true),
  /** Nanoseconds; lower is better. */
  TIME(false),
  /** Bytes; lower is better. */
  BYTES(false),
  /** Bytes per second; higher is better. */
  BANDWIDTH(true),
  /** Floating-point operations per second; higher is better. */
  FLOPS(true);

  private final boolean higherIsBetter;

  Quantity(boolean higherIsBetter) {
    this.higherIsBetter = higherIsBetter;
  }

  /** How many times better {@code ours} is than {@code baseline}: above 1, ours is better. */
  double advantage(double ours, double baseline) {
    return higherIsBetter ? ours / baseline : baseline / ours;
  }

  String format(double value) {
    return switch (this) {
      case RATE -> scaled(value, 1e6, " M/s", 1e3, " k/s", " /s");
      case TIME -> time(value);
      case BYTES -> value < 10_000 ? fixed(value, " B") : fixed(value / 1e3, " kB");
      case BANDWIDTH -> fixed(value / 1e9, " GB/s");
      case FLOPS -> fixed(value / 1e9, " GFLOP/s");
    };
  }

  private static String time(double nanos) {
    if (nanos < 1e3) {
      return fixed(nanos, " ns");
    } else if (nanos < 1e6) {
      return fixed(nanos / 1e3, " µs");
    } else if (nanos < 1e9) {
      return fixed(nanos / 1e6, " ms");
    }
    return fixed(nanos / 1e9, " s");
  }

  private static String scaled(
      double value, double big, String bigUnit, double small, String smallUnit, String unit) {
    if (value >= big) {
      return fixed(value / big, bigUnit);
    }
    return value >= small ? fixed(value / small, smallUnit) : fixed(value, unit);
  }

  /** Three significant digits, never in exponent form. */
  private static String fixed(double value, String unit) {
    double magnitude = Math.abs(value);
    String pattern = magnitude >= 100 ? "%.0f" : magnitude >= 10 ? "%.1f" : "%.2f";
    return String.format(Locale.ROOT, pattern, value) + unit;
  }
}
