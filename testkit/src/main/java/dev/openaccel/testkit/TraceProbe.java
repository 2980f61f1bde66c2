package dev.openaccel.testkit;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.actor.EventSignal;
import dev.openaccel.runtime.trace.TraceEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.AskPattern;

/**
 * Collects an accelerator's trace events ({@link Accelerator#trace()}) from {@link #attach} to
 * {@link #close}, and asserts in what order kernels and events ran, from the timestamps the runtime
 * gives them (one monotonic clock, {@link System#nanoTime()}), not from the order they arrive in.
 *
 * <pre>{@code
 * try (TraceProbe probe = TraceProbe.attach(accelerator)) {
 *   producer.launch("produce", produce);
 *   consumer.waitStream(producer);
 *   consumer.launch("consume", consume);
 *   probe.assertKernelEndedBefore("produce", "consume");
 * }
 * }</pre>
 *
 * <p>The assertions wait, at most the probe's timeout, for the kernels or events they are about to
 * finish, so they may be called right after the work is enqueued; one that fails throws an {@link
 * AssertionError} naming what it expected and what it saw. Kernels are found by the name they were
 * launched with, on any stream of the accelerator.
 *
 * <p>Owns: {@code closed}, set once by {@link #close}; the events live in a {@link TraceLog}
 * written only by the probe's actor. This class is thread-safe.
 */
public final class TraceProbe implements AutoCloseable {
  /** How long the assertions of a probe from {@link #attach(Accelerator)} wait. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

  private static final AtomicLong NEXT_PROBE = new AtomicLong();

  private final Accelerator accelerator;
  private final Duration timeout;
  private final TraceLog log;
  private final ActorRef<TraceCollector.Command> collector;
  private final AtomicBoolean closed = new AtomicBoolean();

  private TraceProbe(
      Accelerator accelerator,
      Duration timeout,
      TraceLog log,
      ActorRef<TraceCollector.Command> collector) {
    this.accelerator = accelerator;
    this.timeout = timeout;
    this.log = log;
    this.collector = collector;
  }

  /** {@link #attach(Accelerator, Duration)} with {@link #DEFAULT_TIMEOUT}. */
  public static TraceProbe attach(Accelerator accelerator) {
    return attach(accelerator, DEFAULT_TIMEOUT);
  }

  /**
   * Subscribes a new probe to {@code accelerator}'s trace bus; returns once it is subscribed, so it
   * sees every trace event published after this call. Its assertions wait at most {@code timeout}.
   *
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if {@code timeout} is not positive
   */
  public static TraceProbe attach(Accelerator accelerator, Duration timeout) {
    Objects.requireNonNull(accelerator, "accelerator");
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("a probe's timeout must be positive, got " + timeout);
    }
    TraceLog log = new TraceLog();
    ActorRef<TraceCollector.Command> collector =
        accelerator
            .system()
            .systemActorOf(
                TraceCollector.create(accelerator.trace(), log),
                "openaccel-testkit-probe-" + NEXT_PROBE.incrementAndGet(),
                Props.empty());
    TraceProbe probe = new TraceProbe(accelerator, timeout, log, collector);
    probe.flush(); // the collector subscribes as it starts: its first answer proves it listens
    return probe;
  }

  /** How long this probe's assertions wait. */
  public Duration timeout() {
    return timeout;
  }

  /**
   * The names of the kernels that started since the probe was attached, in the order they started
   * (by their {@link TraceEvent.KernelStarted} timestamps), as far as the trace has reached the
   * probe when this is called: every kernel whose start happened before the call (for example,
   * before a {@code synchronize} that returned) is listed.
   *
   * @throws IllegalStateException if the probe is closed
   */
  public List<String> kernels() {
    requireOpen();
    flush();
    return TraceOrder.startOrder(log.snapshot()).stream()
        .map(TraceEvent.KernelStarted::kernel)
        .toList();
  }

  /**
   * Asserts that the kernel {@code first} finished (failed or not) no later than the kernel {@code
   * then} started, by their trace timestamps; waits at most the timeout for both. With several
   * kernels of a name, it is the first of them to finish, and the first of them to start.
   *
   * @throws AssertionError if {@code then} started first, or one of them was not seen in time; the
   *     message names both kernels, their times and the kernels the probe saw
   * @throws IllegalStateException if the probe is closed
   */
  public void assertKernelEndedBefore(String first, String then) {
    Objects.requireNonNull(first, "first");
    Objects.requireNonNull(then, "then");
    requireOpen();
    String expected = "expected kernel '" + first + "' to end before kernel '" + then + "' started";
    List<TraceEvent> seen =
        awaitLog(
            events ->
                TraceOrder.finished(events, first).isPresent()
                    && TraceOrder.started(events, then).isPresent());
    var ended = TraceOrder.finished(seen, first);
    var started = TraceOrder.started(seen, then);
    if (ended.isEmpty() || started.isEmpty()) {
      throw new AssertionError(
          expected
              + ", but within "
              + timeout
              + (ended.isEmpty() ? " '" + first + "' did not end" : "")
              + (ended.isEmpty() && started.isEmpty() ? " and" : "")
              + (started.isEmpty() ? " '" + then + "' did not start" : "")
              + "; kernels seen: "
              + TraceOrder.describeKernels(seen));
    }
    long endedAt = ended.get().atNanos();
    long startedAt = started.get().atNanos();
    if (endedAt > startedAt) {
      throw new AssertionError(
          expected
              + ", but '"
              + then
              + "' started "
              + (endedAt - startedAt)
              + " ns before '"
              + first
              + "' ended; kernels seen: "
              + TraceOrder.describeKernels(seen));
    }
  }

  /**
   * Asserts that the latest records of {@code events} completed in the order given: each one no
   * later than the next, by the {@link EventSignal.Completed#completedAtNanos} the runtime reports
   * to a subscriber ({@link Event#subscribe}); the trace itself says when a record was enqueued,
   * not when it completed. Each event is subscribed just after the call, so a record made
   * concurrently with the call may or may not be the one checked. Waits at most the timeout for
   * every record to complete.
   *
   * @throws IllegalArgumentException if fewer than two events are given, or one was never recorded
   * @throws NullPointerException if {@code events} or one of them is null
   * @throws AssertionError if they completed in another order, a record failed, or one did not
   *     complete in time; the message names the events in the order expected and in the order seen
   * @throws IllegalStateException if the probe is closed
   */
  public void assertEventsCompletedInOrder(Event... events) {
    List<Event> expected = TraceOrder.recordedEvents(events);
    requireOpen();
    long deadline = System.nanoTime() + timeout.toNanos();
    List<CompletionStage<EventSignal>> signals = new ArrayList<>();
    for (Event event : expected) {
      signals.add(
          AskPattern.ask(
              collector,
              replyTo -> new TraceCollector.Subscribe(event, replyTo),
              timeout,
              accelerator.system().scheduler()));
    }
    List<Long> completedAt = new ArrayList<>();
    for (int i = 0; i < expected.size(); i++) {
      EventSignal signal =
          await(
              signals.get(i),
              deadline,
              "expected events "
                  + TraceOrder.describeEvents(expected)
                  + " to complete in that order, but the completion of "
                  + TraceOrder.describeEvents(List.of(expected.get(i))));
      if (signal instanceof EventSignal.Failed failed) {
        throw new AssertionError(
            "expected events "
                + TraceOrder.describeEvents(expected)
                + " to complete in that order,"
                + " but event "
                + failed.eventId()
                + " failed: "
                + failed.cause(),
            failed.cause());
      }
      completedAt.add(((EventSignal.Completed) signal).completedAtNanos());
    }
    List<Integer> order = TraceOrder.byTime(completedAt);
    for (int i = 1; i < completedAt.size(); i++) {
      if (completedAt.get(i - 1) > completedAt.get(i)) {
        throw new AssertionError(
            "expected events "
                + TraceOrder.describeEvents(expected)
                + " to complete in that order, but they completed in the order "
                + TraceOrder.describeCompletions(expected, completedAt, order));
      }
    }
  }

  /** Unsubscribes the probe from the trace bus; idempotent. */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      collector.tell(TraceCollector.Stop.INSTANCE);
    }
  }

  @Override
  public String toString() {
    return "TraceProbe(" + accelerator + (closed.get() ? ", closed)" : ")");
  }

  private void requireOpen() {
    if (closed.get()) {
      throw new IllegalStateException(this + " is closed");
    }
  }

  private List<TraceEvent> awaitLog(Predicate<List<TraceEvent>> ready) {
    try {
      return log.await(ready, System.nanoTime() + timeout.toNanos());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the trace", e);
    }
  }

  private void flush() {
    await(
        AskPattern.<TraceCollector.Command, Done>ask(
            collector, TraceCollector.Flush::new, timeout, accelerator.system().scheduler()),
        System.nanoTime() + timeout.toNanos(),
        "the trace probe's answer");
  }

  /** The value of {@code stage} by {@code deadlineNanos}; an AssertionError naming it if late. */
  private <T> T await(CompletionStage<T> stage, long deadlineNanos, String what) {
    try {
      long remaining = Math.max(0, deadlineNanos - System.nanoTime());
      return stage.toCompletableFuture().get(remaining, TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for " + what, e);
    } catch (ExecutionException | TimeoutException e) {
      throw new AssertionError(what + " did not come within " + timeout, e);
    }
  }
}
