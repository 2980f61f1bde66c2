package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.internal.engine.StreamMessage.DeviceEnded;
import dev.openaccel.runtime.internal.engine.StreamMessage.Drain;
import dev.openaccel.runtime.internal.engine.StreamMessage.GateOpened;
import dev.openaccel.runtime.internal.engine.StreamMessage.Wake;
import dev.openaccel.runtime.internal.engine.StreamMessage.Woken;
import dev.openaccel.runtime.spi.DeviceQueue;
import dev.openaccel.runtime.spi.Marker;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.ExtensibleBehavior;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.Signal;
import org.apache.pekko.actor.typed.TypedActorContext;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * The actor of one stream and its owner: it claims the stream's {@link StreamQueue} and takes its
 * items in order on the device's dispatcher, one step per kind ({@link #step}). Java kernels run
 * here; with a device queue, device work and markers go to it through {@link DeviceSteps} and their
 * ends come back as messages. A wait for an incomplete generation parks the stream (no thread
 * blocks) unless the device can wait for it. {@link PostStop} stops the stream in the same turn.
 *
 * <p>Owns: the stream's {@link StreamProgress}, the owner's side of its queue, the wait it is
 * parked on ({@code blockedOn}) and, through {@link DeviceSteps}, the device items in flight and
 * the item gated behind them, and through {@link ItemGate} the item a device control holds. Other
 * threads only hand it messages. Internal.
 */
final class StreamActor extends ExtensibleBehavior<StreamMessage> {

  // After a timing record, the stream waits this long for the timed work: no wake-up is measured.
  private static final long TIMING_LINGER_NANOS = 5_000;

  static Behavior<StreamMessage> create(StreamQueue handle) {
    return Behaviors.setup(
        context -> {
          if (!handle.claim(context.getSelf())) {
            return Behaviors.stopped(); // stopped first: whoever stopped it settled its work
          }
          try {
            DeviceQueue queue = handle.engine().spec().executor().open(handle.stream());
            return new StreamActor(context, handle, queue);
          } catch (RuntimeException | Error e) { // the owner must stop what it claimed
            handle.end().stop(handle.stopFailure("its device queue could not be opened: " + e));
            return Behaviors.stopped();
          }
        });
  }

  // The context is not thread-safe; callbacks on other threads tell this instead.
  private final ActorRef<StreamMessage> self;
  private final StreamQueue handle;
  private final StreamProgress progress;
  private final int batch;
  private final QueueBound bound;
  private final Kernels kernels;
  private final DeviceSteps device; // null: no device queue, every item is Java code run here
  private final ItemGate gate;
  private Generation blockedOn; // parked until this generation completes
  private boolean lingerAfterTiming;
  private Throwable crashed; // what stopped this actor, if not its system's shutdown

  private StreamActor(ActorContext<StreamMessage> context, StreamQueue handle, DeviceQueue queue) {
    this.self = context.getSelf();
    this.handle = handle;
    this.progress = handle.progress();
    this.batch = handle.batch();
    this.bound = handle.bound();
    this.kernels = Kernels.of(handle);
    this.device =
        queue == null
            ? null
            : new DeviceSteps(
                handle.stream(), queue, progress, () -> self.tell(DeviceEnded.INSTANCE));
    this.gate =
        new ItemGate(
            handle.engine().control(), handle.stream(), () -> self.tell(GateOpened.INSTANCE));
    self.tell(Drain.INSTANCE);
  }

  // Dispatched by hand (a receive builder's handlers would be objects of every stream); made only
  // by create(), inside Behaviors.setup, so the context it is handed is always its own.
  @Override
  public Behavior<StreamMessage> receive(
      TypedActorContext<StreamMessage> context, StreamMessage message) {
    try {
      if (message == Drain.INSTANCE) {
        if (blockedOn == null && !gate.holding() && (device == null || !device.gated())) {
          drain();
        }
      } else if (message == DeviceEnded.INSTANCE) {
        onDeviceEnded();
      } else if (message == GateOpened.INSTANCE) {
        WorkItem item = gate.release();
        if (item != null && step(item)) {
          drain();
        }
      } else if (message instanceof Woken woken) {
        onWoken(woken);
      } else {
        return Behaviors.unhandled();
      }
      if (handle.end().closeIfDone()) {
        return Behaviors.stopped(); // closed, and all its work settled
      }
      admitWaiting();
      return this;
    } catch (RuntimeException | Error e) {
      crashed = e; // the actor stops; its work fails naming this (see onPostStop)
      throw e;
    } finally {
      kernels.leave(); // what a callback run in this turn set does not reach the next one
    }
  }

  @Override
  public Behavior<StreamMessage> receiveSignal(
      TypedActorContext<StreamMessage> context, Signal signal) {
    try {
      return signal instanceof PostStop ? onPostStop() : Behaviors.unhandled();
    } finally {
      kernels.leave(); // the callbacks the stop ran leave nothing on the thread either
    }
  }

  /** Takes the parked wait up again: settled if done, else handed to the device or parked. */
  private void onWoken(Woken woken) {
    if (woken.marked()) {
      DevicePool.settle(); // a device wait may run callbacks; drain() settles before each item
    }
    if (woken.generation() == blockedOn) {
      blockedOn = null;
      if (waitOn(woken.generation())) {
        drain();
      }
    }
  }

  private void onDeviceEnded() {
    DevicePool.settle();
    WorkItem ungated = device.settleEnded();
    if (ungated != null && step(ungated)) { // its own step decides again whether it must wait
      drain();
    }
  }

  /**
   * The stream's stop, in its owner's last turn: what is queued, the item it parked on and the
   * device items in flight fail with why the actor stopped (nothing never seen to end passes).
   */
  private Behavior<StreamMessage> onPostStop() {
    DevicePool.settle();
    WorkItem held = gate.drop();
    if (blockedOn != null || held != null) {
      progress.itemCompleted(); // the parked item will never resume; it was polled, so count it
    }
    DeviceExecutionException why =
        handle.stopFailure(
            crashed == null
                ? "the stream's actor stopped (its actor system is shutting down)"
                : "the stream's actor failed and stopped: " + crashed);
    if (held != null) {
      held.reject(why);
    }
    handle.end().stop(why);
    if (device != null) {
      device.stop(why);
    }
    return this;
  }

  /**
   * Runs items in batches of {@code batch}, yielding the thread after a batch only if another actor
   * of the device waits for one (a reschedule wakes a sibling thread). Kernels nobody waits for are
   * counted once per batch; any other item publishes the count before its completion can be seen.
   */
  private void drain() {
    try {
      for (int budget = batch; ; budget--) {
        if (budget == 0) {
          if (DevicePool.othersWaiting()) {
            self.tell(Drain.INSTANCE);
            return;
          }
          progress.publish();
          admitWaiting();
          budget = batch;
        }
        WorkItem item;
        if (lingerAfterTiming) {
          DevicePool.settle(); // nobody waits out the linger
          item = handle.pollWithin(TIMING_LINGER_NANOS);
          lingerAfterTiming = false;
        } else {
          item = handle.poll();
        }
        if (item == null) {
          if (handle.idleOrContinue()) {
            continue;
          }
          return;
        }
        DevicePool.settle(); // a stream this one resumed gets a thread before anything runs here
        if (!step(item)) {
          return; // parked; Woken or DeviceEnded continues
        }
      }
    } finally {
      progress.publish(); // receive() then gives the thread a fresh context
      if (device != null) {
        device.flush(); // the stream submitted all it has for now, or yields its thread
      }
    }
  }

  private void admitWaiting() { // completions published: producers waiting for room look again
    if (bound.anyWaiting()) {
      bound.signal(handle);
    }
  }

  /** Runs one item by its kind; false if the stream is now parked and takes no more work. */
  private boolean step(WorkItem polled) {
    WorkItem item = gate.admit(polled);
    if (item == null) {
      return false; // held by the device control; GateOpened continues
    }
    if (item instanceof WorkItem.Launch launch) {
      if (device != null && device.gateWhileBusy(launch)) {
        return false; // Java code runs once the device has ended the work before it
      }
      progress.fail(kernels.run(launch.name(), launch.kernel()));
      progress.itemCompletedUnpublished(); // drain() publishes
      return true;
    }
    kernels.leave(); // whatever else runs here may run the caller's callbacks
    if (item instanceof WorkItem.HostWork host) {
      return runHost(host);
    } else if (item instanceof Generation record) {
      return runRecord(record);
    } else if (item instanceof WorkItem.Wait wait) {
      return waitOn(wait.generation());
    } else if (item instanceof WorkItem.DeviceCommand command) {
      return device == null
          ? DeviceSteps.refuse(handle.stream(), progress, command)
          : device.submit(command);
    } else if (device == null) {
      progress.settle((WorkItem.Sync) item);
    } else {
      device.settleInOrder((WorkItem.Sync) item);
    }
    return true;
  }

  private boolean runHost(WorkItem.HostWork kernel) {
    if (device != null && device.gateWhileBusy(kernel)) {
      return false; // Java code runs once the device has ended the work before it
    }
    kernels.runCounted(kernel, progress);
    return true;
  }

  private boolean runRecord(Generation generation) {
    if (device != null) {
      device.mark(generation);
      return true;
    }
    progress.itemCompleted();
    generation.completeInTurn(gate.nanoTime(), progress.unreported()); // settled below
    EngineEvent event = generation.event();
    lingerAfterTiming = event != null && event.timing();
    return true;
  }

  /** Settles a wait, hands it to the device, or parks on it; false if the stream is now parked. */
  private boolean waitOn(Generation generation) {
    if (generation.isDone()) {
      progress.absorb(handle.stream(), generation);
      progress.itemCompleted();
      return true;
    }
    Marker marker = generation.deviceMarker();
    if (device != null && marker == null) {
      // The record may not be on its device queue yet: wait until it is, then wait on the device.
      blockedOn = generation;
      generation.onMarkedOrDone(new Wake(self, true));
      return false;
    }
    if (device != null && device.waitOnDevice(generation, marker)) {
      return true;
    }
    blockedOn = generation;
    generation.onComplete(new Wake(self, false));
    return false;
  }
}
