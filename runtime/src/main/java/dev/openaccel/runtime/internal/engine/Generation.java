package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.spi.DeviceControl;
import dev.openaccel.runtime.spi.Marker;
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
 * One record of an event (or an unnamed point in a stream): a latch that completes once, when its
 * stream reaches the recorded position. Internal.
 *
 * <p>Owns: its outcome (completion time or failure) and its waiters. The outcome is written once,
 * by the stream actor that reaches the record (or by shutdown), under this object's monitor;
 * readers see it through the volatile {@code done} flag. Waiters run on the completing thread after
 * the monitor is released, so they must only hand off (tell an actor, complete a future).
 *
 * <p>As a {@link WorkItem} it is the record itself: the stream that reaches it completes it.
 */
final class Generation implements WorkItem {
  private static final CompletionStage<Void> SUCCEEDED = CompletableFuture.completedStage(null);

  private final EngineEvent event;
  private final long number;
  private final String label;
  private volatile boolean done;
  // Written once by the recording stream's actor when it submits the record to a device queue.
  private volatile Marker deviceMarker;
  private long completedAtNanos;
  private DeviceExecutionException failure;
  private Object waiters; // null, one Consumer, or a List of them; guarded by this
  private Object markWaiters; // null, one Consumer, or a List of them; guarded by this

  private Generation(EngineEvent event, long number, String label) {
    this.event = event;
    this.number = number;
    this.label = label;
  }

  /** Record {@code number} of {@code event}. */
  static Generation of(EngineEvent event, long number) {
    return new Generation(event, number, null);
  }

  /**
   * Record {@code number} of {@code event}, completed at {@code atNanos} without failure: a record
   * on a stream with nothing pending, which completes where it is made.
   */
  static Generation completed(EngineEvent event, long number, long atNanos) {
    Generation done = new Generation(event, number, null);
    done.completedAtNanos = atNanos;
    done.done = true; // volatile write last: whoever sees done sees the time
    return done;
  }

  /** A point that belongs to no event, described by {@code label} in failure messages. */
  static Generation unnamed(String label) {
    return new Generation(null, 0, label);
  }

  @Override
  public void reject(DeviceExecutionException failure) {
    complete(System.nanoTime(), failure);
  }

  EngineEvent event() {
    return event;
  }

  long number() {
    return number;
  }

  boolean isDone() {
    return done;
  }

  /** Done without failure: a wait for it has nothing to wait for and nothing to report. */
  boolean succeeded() {
    return done && failure == null;
  }

  /** The completion timestamp; meaningful only once {@link #isDone()}. */
  long completedAtNanos() {
    return completedAtNanos;
  }

  /** The failure, or null; meaningful only once {@link #isDone()}. */
  DeviceExecutionException failure() {
    return failure;
  }

  Marker deviceMarker() {
    return deviceMarker;
  }

  /**
   * Sets the record's device marker (once, by the recording stream's actor) and tells who waits.
   * Their turns are not handed off: a stream that waits on the device must enqueue its wait before
   * the record ends, and the recording thread may lose its core to the device's own worker next.
   */
  void deviceMarker(Marker marker) {
    Object toRun;
    synchronized (this) {
      deviceMarker = marker;
      toRun = markWaiters;
      markWaiters = null;
    }
    runWaiters(toRun, false);
  }

  /**
   * Runs {@code waiter} once this record has a device marker or is done: now, on this thread, if it
   * already has one or is. A stream of a device-queue backend waits so for a record that is not on
   * its device queue yet, instead of waiting for the whole record to complete.
   */
  void onMarkedOrDone(Consumer<Generation> waiter) {
    synchronized (this) {
      if (!done && deviceMarker == null) {
        markWaiters = add(markWaiters, waiter);
        return;
      }
    }
    waiter.accept(this);
  }

  /** Completes this generation; later calls are ignored (latched). */
  void complete(long atNanos, DeviceExecutionException failureOrNull) {
    complete(atNanos, failureOrNull, false);
  }

  /**
   * Completes this generation in the turn of the stream that reached it, on its device thread: the
   * streams of its device that wait for it are handed off ({@link DevicePool#handOff}), so the
   * caller must reach a {@link DevicePool#settle} before it runs anything that may take long.
   */
  void completeInTurn(long atNanos, DeviceExecutionException failureOrNull) {
    complete(atNanos, failureOrNull, true);
  }

  private void complete(long atNanos, DeviceExecutionException failureOrNull, boolean handOffs) {
    Object toRun;
    Object marked;
    synchronized (this) {
      if (done) {
        return;
      }
      completedAtNanos = atNanos;
      failure = failureOrNull;
      done = true;
      toRun = waiters;
      waiters = null;
      marked = markWaiters;
      markWaiters = null;
    }
    Marker marker = deviceMarker;
    if (marker != null) {
      marker.release();
    }
    runWaiters(marked, handOffs);
    runWaiters(toRun, handOffs);
  }

  /** Runs {@code waiter} once this generation is done: now, on this thread, if it already is. */
  void onComplete(Consumer<Generation> waiter) {
    synchronized (this) {
      if (!done) {
        waiters = add(waiters, waiter);
        return;
      }
    }
    waiter.accept(this);
  }

  /** Throws a copy of this generation's failure, if it failed. Call only once done. */
  void throwIfFailed() {
    if (failure != null) {
      throw Failures.copy(failure);
    }
  }

  /** A stage completed with this generation's outcome. */
  CompletionStage<Void> toStage() {
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
   * Blocks the calling (non-device) thread until done, or until {@code timeout} (null: none) has
   * passed on {@code control}'s clock (null, or a control without one: the real clock).
   *
   * @return false if the timeout passed first
   */
  boolean await(Duration timeout, DeviceControl control) {
    if (done) {
      return true;
    }
    CompletableFuture<Void> completed = toStage().toCompletableFuture();
    try {
      if (timeout == null) {
        completed.get();
        return true;
      }
      CompletionStage<?> passed = control == null ? null : control.timeout(timeout);
      if (passed == null) {
        completed.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        return true;
      }
      CompletableFuture.anyOf(completed, passed.toCompletableFuture()).handle((v, e) -> v).get();
      return completed.isDone();
    } catch (TimeoutException e) {
      return false;
    } catch (ExecutionException e) {
      return true; // failed: the caller reads failure()
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for " + this, e);
    }
  }

  /** {@code list} (null, one waiter, or a List of them) with {@code waiter} added. */
  private static Object add(Object list, Object waiter) {
    if (list == null) {
      return waiter;
    }
    if (list instanceof List<?>) {
      @SuppressWarnings("unchecked")
      List<Object> many = (List<Object>) list;
      many.add(waiter);
      return many;
    }
    List<Object> many = new ArrayList<>(4);
    many.add(list);
    many.add(waiter);
    return many;
  }

  private void runWaiters(Object toRun, boolean handOffs) {
    if (toRun instanceof List<?> list) {
      for (Object w : list) {
        runWaiter(w, handOffs);
      }
    } else if (toRun != null) {
      runWaiter(toRun, handOffs);
    }
  }

  @SuppressWarnings("unchecked")
  private void runWaiter(Object waiter, boolean handOffs) {
    Consumer<Generation> w = (Consumer<Generation>) waiter;
    if (handOffs && waiter instanceof DevicePool.HandOff) {
      DevicePool.handOff(w, this);
    } else {
      DevicePool.settle(); // a stream handed off before must not wait behind this waiter
      w.accept(this);
    }
  }

  @Override
  public String toString() {
    return event == null ? label : "record " + number + " of event " + event.id();
  }
}
