package dev.openaccel.cluster;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.trace.TraceBus;
import dev.openaccel.runtime.trace.TraceEvent;
import java.util.concurrent.CompletableFuture;

/**
 * The trace of one collective operation on one member: its span ({@link
 * TraceEvent.CollectiveFinished}) and a {@link TraceEvent.CollectiveStep} per piece of data it
 * sends, published on this node's trace bus. Every site checks {@link TraceBus#enabled()} before it
 * reads the clock or builds anything ({@link OpRun} checks {@link #enabled()} before each step), so
 * an operation nobody watches pays one volatile read per site. Internal.
 *
 * <p>Owns: the start stamp, written once by the operation's start (on the collectives dispatcher)
 * and read when it ends (volatile); {@link #NOT_STARTED} while it was not started, or nobody
 * listened then.
 */
final class CollectiveTrace {
  private static final long NOT_STARTED = Long.MIN_VALUE;

  private final TraceBus bus;
  private final Device device;
  private final long streamId;
  private final String group;
  private final String operation;
  private final long number;
  private final long bytes;
  private volatile long startNanos = NOT_STARTED;

  CollectiveTrace(
      TraceBus bus,
      Device device,
      long streamId,
      String group,
      String operation,
      long number,
      long bytes) {
    this.bus = bus;
    this.device = device;
    this.streamId = streamId;
    this.group = group;
    this.operation = operation;
    this.number = number;
    this.bytes = bytes;
  }

  /** The operation started (its stream reached it): stamped if somebody listens. */
  void started() {
    if (bus.enabled()) {
      startNanos = System.nanoTime();
    }
  }

  /** Whether somebody listens: check before {@link #step}. */
  boolean enabled() {
    return bus.enabled();
  }

  /**
   * A piece of {@code length} bytes, ready at {@code start}, is being sent as {@code sent}: the
   * stage returned completes once its step is published too, so an operation's steps are published
   * before it ends.
   */
  CompletableFuture<Void> step(
      CompletableFuture<Void> sent, long start, int step, int piece, int length) {
    return sent.thenRun(
        () ->
            bus.publish(
                new TraceEvent.CollectiveStep(
                    device,
                    streamId,
                    group,
                    operation,
                    number,
                    step,
                    piece,
                    length,
                    start,
                    System.nanoTime())));
  }

  /** The operation's Work is about to complete; {@code failed} if it failed. */
  void ended(boolean failed) {
    long start = startNanos;
    if (start != NOT_STARTED && bus.enabled()) {
      bus.publish(
          new TraceEvent.CollectiveFinished(
              device, streamId, group, operation, number, bytes, failed, start, System.nanoTime()));
    }
  }
}
