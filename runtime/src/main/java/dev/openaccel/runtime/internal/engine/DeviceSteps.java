package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.DeviceQueue;
import dev.openaccel.runtime.spi.Marker;

/**
 * The steps of a stream whose backend has a device queue: device work and event markers are
 * submitted in stream order, a wait on a marker of the same executor goes to the device, and each
 * end is settled in submission order through {@link InFlight}. Internal; confined to the stream's
 * actor, on whose behalf it writes the stream's {@link StreamProgress}.
 *
 * <p>Owns (run only by the stream's actor): the items in flight ({@link InFlight}), the item parked
 * until the device work before it ended ({@code gated}) and the stream's device queue, which it
 * closes when the stream stops.
 */
final class DeviceSteps {
  private final Stream stream;
  private final DeviceQueue queue;
  private final InFlight inFlight;
  private final StreamProgress progress;
  // Java code or a heap copy, parked until the device work before it ended; the actor's
  private WorkItem gated;

  /**
   * @param ended tells the stream's actor that device items ended (see {@link InFlight})
   */
  DeviceSteps(Stream stream, DeviceQueue queue, StreamProgress progress, Runnable ended) {
    this.stream = stream;
    this.queue = queue;
    this.inFlight = new InFlight(ended);
    this.progress = progress;
  }

  /** Whether an item is parked until the device work before it has ended. */
  boolean gated() {
    return gated != null;
  }

  /**
   * Parks {@code kernel}, Java code, if device work before it has not ended yet: it runs once that
   * work has (see {@link #settleEnded}).
   *
   * @return true if parked
   */
  boolean gateWhileBusy(WorkItem.HostWork kernel) {
    if (inFlight.isEmpty()) {
      return false;
    }
    gated = kernel;
    return true;
  }

  /**
   * Settles the items at the front whose ends arrived (the actor's part of a signal).
   *
   * @return the item that was parked until now, for the actor to step again, or null
   */
  WorkItem settleEnded() {
    inFlight.settleEnded();
    WorkItem item = gated;
    gated = null;
    return item;
  }

  /** Completes {@code sync} once every item submitted before it has ended, in order. */
  void settleInOrder(WorkItem.Sync sync) {
    if (inFlight.isEmpty()) {
      progress.settle(sync);
    } else {
      inFlight.addSettled((nanos, failure) -> progress.settle(sync));
    }
  }

  /**
   * The stream stopped: the parked item and every item in flight fail with {@code why}, and the
   * device queue is closed.
   */
  void stop(DeviceExecutionException why) {
    if (gated != null) {
      gated.reject(why);
      progress.itemCompleted();
      gated = null;
    }
    inFlight.abandon(why);
    queue.close();
  }

  /**
   * Settles device work on {@code stream}, which has no device queue: it fails, in order, naming
   * why; true, as a step that did not park.
   */
  static boolean refuse(Stream stream, StreamProgress progress, WorkItem.DeviceCommand command) {
    progress.fail(
        new DeviceExecutionException(
            "device work '"
                + command.name()
                + "' cannot run on "
                + stream
                + ": its backend's executor gives it no device queue"));
    command.work().discard();
    progress.itemCompleted();
    return true;
  }

  /**
   * Submits backend device work, unless it is a copy from the heap and earlier work may still fill
   * heap memory: it is then parked until that work has ended.
   *
   * @return false if parked
   */
  boolean submit(WorkItem.DeviceCommand command) {
    if (command.readsHeap() && inFlight.fillingHeap()) {
      gated = command;
      return false;
    }
    InFlight.Entry entry =
        inFlight.add(
            (nanos, failure) -> {
              if (failure != null) {
                progress.fail(failed(command, failure));
              }
              progress.itemCompleted();
            },
            1,
            command.writesHeap());
    try {
      queue.submit(command.work(), entry);
    } catch (RuntimeException rejected) {
      entry.fail(rejected); // settled in order, like a failure the device reports
    }
    return true;
  }

  /** Submits the marker of {@code generation}, which completes with the device's end time. */
  void mark(Generation generation) {
    InFlight.Entry entry =
        inFlight.add(
            (nanos, failure) -> {
              if (failure != null) {
                progress.fail(failure);
              }
              progress.itemCompleted();
              generation.complete(nanos, progress.unreported());
            },
            1);
    Marker marker;
    try {
      marker = queue.mark(entry);
    } catch (RuntimeException refused) {
      entry.fail(refused); // the record fails, in order, as a failure the device reports would
      marker = null;
    }
    generation.deviceMarker(marker);
  }

  /**
   * Hands a wait for {@code generation}'s {@code marker} to the device; false if the queue declines
   * it (another executor's marker, or one already released). The wait settles after both the
   * device's wait and the record's own completion, so a failed record still fails the stream. A
   * queue that throws instead declines too.
   */
  boolean waitOnDevice(Generation generation, Marker marker) {
    InFlight.Entry entry =
        inFlight.add(
            (nanos, failure) -> {
              if (failure != null) {
                progress.fail(failure); // the device's own wait failed
              }
              progress.absorb(stream, generation);
              progress.itemCompleted();
            },
            2,
            true); // ends after the copies of the stream it waits for, which may fill the heap
    boolean taken;
    try {
      taken = queue.waitFor(marker, entry);
    } catch (RuntimeException refused) {
      taken = false; // the stream waits for the record on the host instead
    }
    if (taken) {
      generation.onComplete(done -> entry.complete(0));
      return true;
    }
    inFlight.dropLast(entry);
    return false;
  }

  /** The stream submitted all it has for now (see {@link DeviceQueue#flush}). */
  void flush() {
    queue.flush();
  }

  private DeviceExecutionException failed(
      WorkItem.DeviceCommand command, DeviceExecutionException cause) {
    return new DeviceExecutionException(
        "device work '" + command.name() + "' failed on " + stream + ": " + cause,
        cause.getCause() == null ? cause : cause.getCause());
  }
}
