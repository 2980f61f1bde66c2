package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.DeviceControl;
import dev.openaccel.runtime.spi.DeviceControlSlot;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * A stream's side of its actor system's {@link DeviceControl}: asks it before each kernel or copy,
 * holds the item while the stage it answered is pending, and turns a stage that failed into the
 * item failing with its cause (a Java kernel of the same name that throws it, so the failure takes
 * the path of any kernel's). With no control installed, one volatile read per item.
 *
 * <p>Owns: {@code held}, {@code heldUntil} and {@code admitted}, written and read only by the
 * stream's actor; the stage's completion only tells the actor ({@code opened}). Internal.
 */
final class ItemGate {
  private final DeviceControlSlot slot;
  private final Stream stream;
  private final Runnable opened;
  private WorkItem held; // taken from the queue, waiting for heldUntil
  private CompletableFuture<?> heldUntil;
  private WorkItem admitted; // let through: not asked again when the device gates it first

  ItemGate(DeviceControlSlot slot, Stream stream, Runnable opened) {
    this.slot = slot;
    this.stream = stream;
    this.opened = opened;
  }

  /** The item to step now ({@code item} or its failing stand-in), or null if it is held. */
  WorkItem admit(WorkItem item) {
    DeviceControl control = slot.get();
    if (control == null || item == admitted) {
      return item;
    }
    String name = WorkItem.workName(item);
    if (name == null) {
      return item; // records, waits and synchronizes take no time of their own
    }
    CompletionStage<?> stage = control.beforeWork(stream, name);
    if (stage == null) {
      return admitted = item;
    }
    CompletableFuture<?> until = stage.toCompletableFuture();
    if (until.isDone()) {
      return decided(item, until);
    }
    held = item;
    heldUntil = until;
    until.whenComplete((value, failure) -> opened.run());
    return null;
  }

  /** The control's clock, which stamps a record's completion; else {@link System#nanoTime()}. */
  long nanoTime() {
    DeviceControl control = slot.get();
    return control == null ? System.nanoTime() : control.nanoTime();
  }

  /** Whether an item waits for its stage. */
  boolean holding() {
    return held != null;
  }

  /** The held item (or its failing stand-in) once its stage completed; null while it is pending. */
  WorkItem release() {
    if (held == null || !heldUntil.isDone()) {
      return null;
    }
    WorkItem item = held;
    held = null;
    return decided(item, heldUntil);
  }

  /** The held item, which will never run (the stream stopped), or null. */
  WorkItem drop() {
    WorkItem item = held;
    held = null;
    return item;
  }

  private WorkItem decided(WorkItem item, CompletableFuture<?> stage) {
    Throwable cause = stage.handle((value, failure) -> failure).join();
    if (cause instanceof CompletionException && cause.getCause() != null) {
      cause = cause.getCause();
    }
    return admitted = cause == null ? item : failing(item, cause);
  }

  /**
   * A Java kernel named as {@code item} that throws {@code cause}; what {@code item} held is freed.
   */
  private static WorkItem failing(WorkItem item, Throwable cause) {
    WorkItem.Body thrower =
        () -> {
          if (cause instanceof Exception exception) {
            throw exception;
          }
          if (cause instanceof Error error) {
            throw error;
          }
          throw new IllegalStateException(cause);
        };
    if (item instanceof WorkItem.HostKernel kernel) {
      return new WorkItem.HostKernel(kernel.name(), thrower, kernel.result());
    }
    item.reject(null); // a launch keeps nothing; buffers and device work are given back
    return new WorkItem.HostKernel(WorkItem.workName(item), thrower, null);
  }
}
