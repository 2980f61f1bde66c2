package dev.openaccel.testkit;

import dev.openaccel.runtime.Stream;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * What the testkit does to one stream's kernels and copies: the faults waiting for their item, the
 * latency added to each, and the stepping of a {@link StreamStepper}. The engine asks {@link #next}
 * on the stream's device thread before each item; the test's thread sets the rules.
 *
 * <p>Owns: every field, guarded by this object's monitor. This class is thread-safe.
 */
final class StreamRules {
  private record Fault(long position, String name, Throwable cause) {
    boolean matches(long asked, String item) {
      return name == null ? position == asked : name.equals(item);
    }
  }

  private record Held(String name, CompletableFuture<Object> gate) {}

  private final Stream stream;
  private final List<Fault> faults = new ArrayList<>();
  private final Deque<Held> held = new ArrayDeque<>();
  private final List<String> stepped = new ArrayList<>();
  private long asked; // items asked about since the rules were made
  private Duration latency;
  private boolean stepping;
  private long permits; // steps given before their item arrived

  StreamRules(Stream stream) {
    this.stream = stream;
  }

  Stream stream() {
    return stream;
  }

  /** Fails the {@code n}-th item asked about from now (1: the next). */
  synchronized void failNth(long n, Throwable cause) {
    faults.add(new Fault(asked + n, null, cause));
  }

  /** Fails the next item asked about that is named {@code name}. */
  synchronized void failNamed(String name, Throwable cause) {
    faults.add(new Fault(0, name, cause));
  }

  /** Adds {@code delay} before each item from now; zero for none. */
  synchronized void latency(Duration delay) {
    latency = delay.isZero() ? null : delay;
  }

  /** Makes each item from now wait for a {@link #step}. */
  synchronized void stepping() {
    if (stepping) {
      throw new IllegalStateException(stream + " is already stepped");
    }
    stepping = true;
    permits = 0;
    stepped.clear();
  }

  /** Lets the held item (or, if none is held yet, the next one) run. */
  synchronized void step() {
    if (!stepping) {
      throw new IllegalStateException(stream + " is not stepped (any more)");
    }
    Held first = held.pollFirst();
    if (first == null) {
      permits++;
    } else {
      stepped.add(first.name());
      first.gate().complete(null);
    }
  }

  /** The names of the items let through by steps so far, in order. */
  synchronized List<String> stepped() {
    return List.copyOf(stepped);
  }

  /**
   * Waits until an item is held for a step, at most {@code timeout}.
   *
   * @return the held item's name
   * @throws AssertionError if none arrived in time
   */
  synchronized String awaitHeld(Duration timeout) {
    long until = System.nanoTime() + timeout.toNanos();
    try {
      while (held.isEmpty()) {
        long left = until - System.nanoTime();
        if (left <= 0) {
          throw new AssertionError(
              "no kernel or copy of " + stream + " arrived at its step within " + timeout);
        }
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while waiting for a step of " + stream, e);
    }
    return held.peekFirst().name();
  }

  /** Stops stepping and lets every held item go; faults and latency stay. */
  synchronized void stopStepping() {
    stepping = false;
    permits = 0;
    Held next;
    while ((next = held.pollFirst()) != null) {
      next.gate().complete(null);
    }
  }

  /** Forgets every rule and lets every held item go. */
  synchronized void releaseAll() {
    faults.clear();
    latency = null;
    stopStepping();
  }

  /** The stage the item named {@code name} waits for; null to run it at once. */
  synchronized CompletionStage<?> next(String name, TestControl control) {
    asked++;
    Throwable cause = takeFault(name);
    CompletableFuture<Object> stage = null;
    if (stepping) {
      if (permits > 0) {
        permits--;
        stepped.add(name);
      } else {
        stage = new CompletableFuture<>();
        held.addLast(new Held(name, stage));
        notifyAll();
      }
    }
    Duration delay = latency;
    if (delay != null) {
      stage =
          stage == null ? control.after(delay) : stage.thenCompose(ready -> control.after(delay));
    }
    if (cause != null) {
      stage =
          stage == null
              ? CompletableFuture.failedFuture(cause)
              : stage.thenCompose(ready -> CompletableFuture.failedFuture(cause));
    }
    return stage;
  }

  private Throwable takeFault(String name) {
    for (Iterator<Fault> it = faults.iterator(); it.hasNext(); ) {
      Fault fault = it.next();
      if (fault.matches(asked, name)) {
        it.remove();
        return fault.cause();
      }
    }
    return null;
  }
}
