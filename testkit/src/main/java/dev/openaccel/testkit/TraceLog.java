package dev.openaccel.testkit;

import dev.openaccel.runtime.trace.TraceEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The trace events a {@link TraceProbe} has received, in the order they arrived (which, for events
 * published on different threads, need not be the order of their timestamps). Readers wait on this
 * object's monitor for the events they need, each until a deadline.
 *
 * <p>Owns: {@code events}, appended only by the probe's {@link TraceCollector} actor, under this
 * object's monitor. This class is thread-safe.
 */
final class TraceLog {
  private final List<TraceEvent> events = new ArrayList<>();

  /** Adds {@code event} and wakes the readers waiting for it. */
  synchronized void add(TraceEvent event) {
    events.add(event);
    notifyAll();
  }

  /** A copy of the events received so far. */
  synchronized List<TraceEvent> snapshot() {
    return List.copyOf(events);
  }

  /**
   * Waits until the events received satisfy {@code ready} or {@code deadlineNanos} ({@link
   * System#nanoTime()}) passes, and returns a copy of them: the caller tests {@code ready} again to
   * tell which.
   *
   * @throws InterruptedException if the calling thread is interrupted while it waits
   */
  synchronized List<TraceEvent> await(Predicate<List<TraceEvent>> ready, long deadlineNanos)
      throws InterruptedException {
    while (!ready.test(events)) {
      long remaining = deadlineNanos - System.nanoTime();
      if (remaining <= 0) {
        break;
      }
      wait(remaining / 1_000_000, (int) (remaining % 1_000_000));
    }
    return List.copyOf(events);
  }
}
