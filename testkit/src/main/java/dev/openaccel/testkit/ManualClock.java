package dev.openaccel.testkit;

import dev.openaccel.runtime.Accelerator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A device clock that moves only when the test moves it, so that timing is tested without sleeping,
 * as Pekko's {@code ManualTime} does for actors. Once {@link #on installed}, it stamps the
 * completion of every event recorded on a stream without a device queue (OpenReg's), which {@code
 * Event.elapsedTime} subtracts; it times {@code Event.synchronize(Duration)}, which gives up only
 * when the test {@link #advance advances} the clock past its timeout; and it times the latency
 * {@link Faults#delay} adds. A kernel from {@link #taking} "takes" a given time: it moves the clock
 * by that much when it runs.
 *
 * <pre>{@code
 * ManualClock clock = ManualClock.on(accelerator);
 * start.record(stream);
 * stream.launch("step", clock.taking(Duration.ofMillis(5)));
 * end.record(stream);
 * end.synchronize();
 * assertEquals(5.0, start.elapsedTime(end));
 * }</pre>
 *
 * <p>It starts at zero; events completed before it was installed carry the real clock's stamps, so
 * time only events recorded after. Streams with a device queue (OpenCL's) stamp their events on the
 * device's own clock. {@link OpenAccelTest}'s check uninstalls it after each test.
 *
 * <p>Owns: the time and the pending timeouts, guarded by this object's monitor; timeouts complete
 * outside it. This class is thread-safe.
 */
public final class ManualClock {
  private record Timeout(long deadline, long order, CompletableFuture<Object> due) {}

  private final PriorityQueue<Timeout> timeouts =
      new PriorityQueue<>(
          (a, b) ->
              a.deadline() != b.deadline()
                  ? Long.compare(a.deadline(), b.deadline())
                  : Long.compare(a.order(), b.order()));
  private long nanos;
  private long made; // timeouts made, for their order among equal deadlines

  private ManualClock() {}

  /**
   * The manual clock of {@code accelerator}, installed at the first call (at zero) and the same one
   * after that until the test ends.
   */
  public static ManualClock on(Accelerator accelerator) {
    TestControl control = TestControl.of(Objects.requireNonNull(accelerator, "accelerator"));
    synchronized (control) {
      ManualClock clock = control.clock();
      if (clock == null) {
        clock = new ManualClock();
        control.useClock(clock);
      }
      return clock;
    }
  }

  /** The time since the clock was installed. */
  public synchronized Duration now() {
    return Duration.ofNanos(nanos);
  }

  synchronized long nanos() {
    return nanos;
  }

  /**
   * Moves the clock forward by {@code by}; the timeouts and delays that are then due end, earliest
   * first.
   *
   * @throws IllegalArgumentException if {@code by} is negative
   */
  public void advance(Duration by) {
    Objects.requireNonNull(by, "by");
    if (by.isNegative()) {
      throw new IllegalArgumentException("a clock only moves forward, got advance(" + by + ")");
    }
    List<CompletableFuture<Object>> due = new ArrayList<>();
    synchronized (this) {
      nanos = Math.addExact(nanos, by.toNanos());
      while (!timeouts.isEmpty() && timeouts.peek().deadline() <= nanos) {
        due.add(timeouts.poll().due());
      }
    }
    due.forEach(timeout -> timeout.complete(null));
  }

  /** A kernel that moves the clock by {@code duration} when it runs: it "takes" that long. */
  public Runnable taking(Duration duration) {
    return taking(duration, () -> {});
  }

  /** A kernel that runs {@code body}, then moves the clock by {@code duration}. */
  public Runnable taking(Duration duration, Runnable body) {
    Objects.requireNonNull(body, "body");
    if (Objects.requireNonNull(duration, "duration").isNegative()) {
      throw new IllegalArgumentException("a kernel cannot take " + duration);
    }
    return () -> {
      body.run();
      advance(duration);
    };
  }

  /** The timeouts and delays waiting for the clock to reach them. */
  public synchronized int pendingTimeouts() {
    return timeouts.size();
  }

  /**
   * Waits, at most {@code within} of real time, until at least {@code count} timeouts or delays
   * wait for the clock: so that a test advances it only once a {@code synchronize(Duration)} on
   * another thread has started waiting.
   *
   * @throws AssertionError if fewer were waiting when {@code within} had passed
   */
  public synchronized void awaitTimeouts(int count, Duration within) {
    long until = System.nanoTime() + within.toNanos();
    try {
      while (timeouts.size() < count) {
        long left = until - System.nanoTime();
        if (left <= 0) {
          throw new AssertionError(
              count
                  + " timeouts expected on the manual clock within "
                  + within
                  + ", got "
                  + timeouts.size());
        }
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while waiting for timeouts", e);
    }
  }

  /** A stage that completes once the clock has moved {@code delay} past now. */
  synchronized CompletableFuture<Object> after(Duration delay) {
    CompletableFuture<Object> due = new CompletableFuture<>();
    if (delay.isNegative() || delay.isZero()) {
      due.complete(null);
      return due;
    }
    timeouts.add(new Timeout(Math.addExact(nanos, delay.toNanos()), made++, due));
    notifyAll();
    return due;
  }

  @Override
  public synchronized String toString() {
    return "ManualClock(" + now() + ", " + timeouts.size() + " pending)";
  }
}
