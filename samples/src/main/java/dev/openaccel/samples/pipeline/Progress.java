package dev.openaccel.samples.pipeline;

import java.io.Console;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;

/**
 * A progress report on stderr. On a terminal it is one line rewritten in place with {@code \r} at
 * most ten times a second and erased at the end; anywhere else (a file, a pipe, a CI log) it is a
 * plain line every few seconds, so no carriage return ever reaches a log. Either stays silent for
 * the first second, so short runs print nothing.
 *
 * <p>Hand-written on purpose: two modes of a few lines each, where a progress-bar library would
 * bring a terminal library and its own rendering thread. Not thread-safe: one thread reports.
 */
final class Progress {
  private static final Duration QUIET = Duration.ofSeconds(1);
  private static final Duration REDRAW = Duration.ofMillis(100);
  private static final Duration PLAIN_EVERY = Duration.ofSeconds(5);

  private final PrintStream err;
  private final boolean terminal;
  private final long quietNanos;
  private final long everyNanos;
  private final long startNanos = System.nanoTime();
  private long drawnNanos;
  private int width;

  private Progress(PrintStream err, boolean terminal, Duration quiet, Duration every) {
    this.err = err;
    this.terminal = terminal;
    this.quietNanos = quiet.toNanos();
    this.everyNanos = every.toNanos();
    this.drawnNanos = startNanos - everyNanos;
  }

  /** Progress on {@code err}: in place if the JVM runs on a terminal, else plain lines. */
  static Progress of(PrintStream err) {
    return onTerminal() ? inPlace(err, QUIET) : plain(err, QUIET, PLAIN_EVERY);
  }

  /** A line on {@code err} rewritten in place, once a run has taken {@code quiet}. */
  static Progress inPlace(PrintStream err, Duration quiet) {
    return new Progress(err, true, quiet, REDRAW);
  }

  /**
   * A plain line on {@code err} at most once per {@code every}, once a run has taken {@code quiet}.
   */
  static Progress plain(PrintStream err, Duration quiet, Duration every) {
    return new Progress(err, false, quiet, every);
  }

  /**
   * Whether {@link System#console()} is a terminal. From JDK 22 a console exists even when
   * redirected, and its {@code isTerminal()} tells; before, a console exists only on a terminal.
   */
  static boolean onTerminal() {
    Console console = System.console();
    if (console == null) {
      return false;
    }
    try {
      return (Boolean) Console.class.getMethod("isTerminal").invoke(console);
    } catch (NoSuchMethodException before22) {
      return true;
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("Console.isTerminal() failed", e);
    }
  }

  /** Whether the line is rewritten in place (a terminal) rather than printed as plain lines. */
  boolean inPlace() {
    return terminal;
  }

  /** Shows that {@code done} of {@code total} {@code units} of {@code phase} are done. */
  void show(String phase, long done, long total, String units) {
    long now = System.nanoTime();
    if (now - startNanos < quietNanos || now - drawnNanos < everyNanos) {
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
    if (terminal) {
      err.print("\r" + line + " ".repeat(Math.max(0, width - line.length())));
      width = Math.max(width, line.length());
    } else {
      err.println(line);
    }
    err.flush();
  }

  /** Erases the line drawn in place, if any; plain lines stay. */
  void clear() {
    if (width > 0) {
      err.print("\r" + " ".repeat(width) + "\r");
      err.flush();
      width = 0;
    }
  }
}
