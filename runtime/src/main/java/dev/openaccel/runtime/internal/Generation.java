package dev.openaccel.runtime.internal;

import dev.openaccel.runtime.DeviceExecutionException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * One record of an event: a latch that completes once, when its stream reaches the recorded
 * position. Internal.
 *
 * <p>Owns: its outcome (completion time or failure) and its waiters. The outcome is written once,
 * by the stream actor that reaches the record (or by shutdown), under this object's monitor;
 * readers see it through the volatile {@code done} flag. Waiters run on the completing thread after
 * the monitor is released, so they must only hand off (tell an actor, complete a future).
 */
public final class Generation {
  private static final CompletionStage<Void> SUCCEEDED = CompletableFuture.completedStage(null);

  private final EventCore event;
  private final long number;
  private volatile boolean done;
  private long completedAtNanos;
  private DeviceExecutionException failure;
  private Object waiters; // null, one Consumer, or a List of them; guarded by this

  /** A generation of {@code event}, or an anonymous stream marker if {@code event} is null. */
  public Generation(EventCore event, long number) {
    this.event = event;
    this.number = number;
  }

  public EventCore event() {
    return event;
  }

  public long number() {
    return number;
  }

  public boolean isDone() {
    return done;
  }

  /** The completion timestamp; meaningful only once {@link #isDone()}. */
  public long completedAtNanos() {
    return completedAtNanos;
  }

  /** The failure, or null; meaningful only once {@link #isDone()}. */
  public DeviceExecutionException failure() {
    return failure;
  }

  /** Completes this generation; later calls are ignored (latched). */
  public void complete(long atNanos, DeviceExecutionException failureOrNull) {
    Object toRun;
    synchronized (this) {
      if (done) {
        return;
      }
      completedAtNanos = atNanos;
      failure = failureOrNull;
      done = true;
      toRun = waiters;
      waiters = null;
    }
    runWaiters(toRun);
  }

  /** Runs {@code waiter} once this generation is done: now, on this thread, if it already is. */
  public void onComplete(Consumer<Generation> waiter) {
    synchronized (this) {
      if (!done) {
        addWaiter(waiter);
        return;
      }
    }
    waiter.accept(this);
  }

  /** Throws this generation's failure, if it failed. Call only once done. */
  public void throwIfFailed() {
    if (failure != null) {
      throw DeviceEngine.reported(failure);
    }
  }

  /** A stage completed with this generation's outcome. */
  public CompletionStage<Void> toStage() {
    if (done) {
      return failure == null ? SUCCEEDED : CompletableFuture.failedStage(failure);
    }
    CompletableFuture<Void> future = new CompletableFuture<>();
    onComplete(
        g -> {
          if (g.failure == null) {
            future.complete(null);
          } else {
            future.completeExceptionally(g.failure);
          }
        });
    return future;
  }

  /**
   * Blocks the calling (non-OpenAccel) thread until done.
   *
   * @return false if the timeout passed first
   */
  public boolean await(Duration timeout) {
    if (done) {
      return true;
    }
    try {
      toStage().toCompletableFuture().get(timeout.toNanos(), TimeUnit.NANOSECONDS);
      return true;
    } catch (TimeoutException e) {
      return false;
    } catch (ExecutionException e) {
      return true; // failed: the caller reads failure()
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for " + this, e);
    }
  }

  private void addWaiter(Consumer<Generation> waiter) {
    if (waiters == null) {
      waiters = waiter;
    } else if (waiters instanceof List<?>) {
      @SuppressWarnings("unchecked")
      List<Consumer<Generation>> list = (List<Consumer<Generation>>) waiters;
      list.add(waiter);
    } else {
      List<Consumer<Generation>> list = new ArrayList<>(4);
      @SuppressWarnings("unchecked")
      Consumer<Generation> first = (Consumer<Generation>) waiters;
      list.add(first);
      list.add(waiter);
      waiters = list;
    }
  }

  @SuppressWarnings("unchecked")
  private void runWaiters(Object toRun) {
    if (toRun instanceof List<?> list) {
      for (Object w : list) {
        ((Consumer<Generation>) w).accept(this);
      }
    } else if (toRun != null) {
      ((Consumer<Generation>) toRun).accept(this);
    }
  }

  @Override
  public String toString() {
    return event == null ? "stream marker" : "record " + number + " of event " + event.id();
  }
}
