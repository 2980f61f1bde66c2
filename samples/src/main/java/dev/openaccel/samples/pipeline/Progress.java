package dev.openaccel.samples.pipeline;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;

/**
 * A progress line on stderr, rewritten in place with {@code \r}. It stays silent for the first
 * second, so short runs print nothing, and redraws at most ten times a second.
 */
final class Progress {
  private static final Duration QUIET = Duration.ofSeconds(1);
  private static final long REDRAW_NANOS = 100_000_000L;

  private final PrintStream err;
  private final long quietNanos;
  private final long startNanos = System.nanoTime();
  private long drawnNanos;
  private int width;

  /** A progress line on {@code err} that appears once a run has taken a second. */
  Progress(PrintStream err) {
    this(err, QUIET);
  }

  /** A progress line on {@code err} that appears once a run has taken {@code quiet}. */
  Progress(PrintStream err, Duration quiet) {
    this.err = err;
    this.quietNanos = quiet.toNanos();
    this.drawnNanos = startNanos - REDRAW_NANOS;
  }

  /** Shows that {@code done} of {@code total} {@code units} of {@code phase} are done. */
  void show(String phase, long done, long total, String units) {
    long now = System.nanoTime();
    if (now - startNanos < quietNanos || now - drawnNanos < REDRAW_NANOS) {
      return;
    }
    drawnNanos = now;
    String line =
        String.format(
            Locale.ROOT,
            "  %s: %d/%d %s (%d%%), %.1f s",
            phase,
            done,
            total,
            units,
            total == 0 ? 100 : done * 100 / total,
            (now - startNanos) / 1e9);
    err.print("\r" + line + " ".repeat(Math.max(0, width - line.length())));
    err.flush();
    width = Math.max(width, line.length());
  }

  /** Erases the line, if one was drawn. */
  void clear() {
    if (width > 0) {
      err.print("\r" + " ".repeat(width) + "\r");
      err.flush();
      width = 0;
    }
  }
}
