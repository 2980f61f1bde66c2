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
 * <p>Owns: nothing beyond the actor's state it is handed.
 */
final class DeviceSteps {
  private final Stream stream;
  private final DeviceQueue queue;
  private final InFlight inFlight;
  private final StreamProgress progress;

  DeviceSteps(Stream stream, DeviceQueue queue, InFlight inFlight, StreamProgress progress) {
    this.stream = stream;
    this.queue = queue;
    this.inFlight = inFlight;
    this.progress = progress;
  }

  /**
   * Settles device work on {@code stream}, which has no device queue: it fails, in order, naming
   * why.
   */
  static void refuse(Stream stream, StreamProgress progress, WorkItem.DeviceCommand command) {
    progress.fail(
        new DeviceExecutionException(
            "device work '"
                + command.name()
                + "' cannot run on "
                + stream
                + ": its backend's executor gives it no device queue"));
    command.work().discard();
    progress.itemCompleted();
  }

  /** Submits backend device work. */
  void submit(WorkItem.DeviceCommand command) {
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
