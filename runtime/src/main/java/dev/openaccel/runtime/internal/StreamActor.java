package dev.openaccel.runtime.internal;

import dev.openaccel.runtime.DeviceExecutionException;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * The actor of one stream: drains its {@link StreamCore}'s queue in order and runs each item on the
 * device dispatcher it lives on. A wait for an incomplete event generation parks the stream: later
 * items stay queued, no thread blocks, and the generation's completion sends {@link Resume}.
 * Internal.
 *
 * <p>Owns: the stream's progress ({@code completed}), its unreported failure, and which generation
 * it is blocked on; it publishes the first two through the core.
 */
final class StreamActor extends AbstractBehavior<StreamActor.Command> {

  sealed interface Command {}

  /** Wake-up: there is work in the queue. */
  enum Drain implements Command {
    INSTANCE
  }

  private record Resume(Generation generation) implements Command {}

  /**
   * How long a stream waits for its next item after reaching a timing event's record: the work
   * being timed is usually enqueued right after the record, and a wake-up in between would be
   * measured. Other records, and idle streams in general, do not wait (a waiting device thread
   * holds a core).
   */
  private static final long TIMING_LINGER_NANOS = 5_000;

  static Behavior<Command> create(StreamCore core, int batch) {
    return Behaviors.setup(
        context ->
            core.attach(context.getSelf())
                ? new StreamActor(context, core, batch)
                : Behaviors.stopped());
  }

  private final ActorRef<Command>
      self; // the context is not thread-safe; waiters tell this from elsewhere
  private final StreamCore core;
  private final int batch;
  private final KernelRunner runner;
  private Generation blockedOn;
  private boolean lingerAfterTiming;

  private StreamActor(ActorContext<Command> context, StreamCore core, int batch) {
    super(context);
    this.self = context.getSelf();
    this.core = core;
    this.batch = batch;
    this.runner = new KernelRunner(core, core.engine().spec().launchModel());
    self.tell(Drain.INSTANCE);
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessageEquals(Drain.INSTANCE, this::onDrain)
        .onMessage(Resume.class, this::onResume)
        .onSignal(PostStop.class, signal -> onPostStop())
        .build();
  }

  private Behavior<Command> onDrain() {
    if (blockedOn == null) {
      drain();
    }
    return this;
  }

  private Behavior<Command> onResume(Resume resume) {
    if (resume.generation() == blockedOn) {
      blockedOn = null;
      absorb(resume.generation());
      core.itemCompleted();
      drain();
    }
    return this;
  }

  private Behavior<Command> onPostStop() {
    if (blockedOn != null) {
      core.itemCompleted(); // the parked wait will never resume; it was polled, so count it here
    }
    core.terminate("the stream's actor stopped (its actor system is shutting down)");
    return this;
  }

  /** Runs up to {@code batch} items, then yields the thread to the device's other streams. */
  private void drain() {
    for (int budget = batch; budget > 0; budget--) {
      WorkItem item = lingerAfterTiming ? core.pollWithin(TIMING_LINGER_NANOS) : core.poll();
      lingerAfterTiming = false;
      if (item == null) {
        if (core.idleOrContinue()) {
          continue;
        }
        return;
      }
      if (!run(item)) {
        return; // parked on a wait; Resume continues
      }
    }
    self.tell(Drain.INSTANCE);
  }

  /** Runs one item; false if the stream is now parked on an incomplete generation. */
  private boolean run(WorkItem item) {
    if (item instanceof WorkItem.Launch launch) {
      runner.launch(launch);
      return true; // the runner counts it
    } else if (item instanceof WorkItem.Submit submit) {
      runner.submit(submit);
      return true; // the runner counts it before completing the caller's stage
    } else if (item instanceof WorkItem.Record record) {
      core.itemCompleted();
      record.generation().complete(System.nanoTime(), core.unreported());
      EventCore event = record.generation().event();
      lingerAfterTiming = event != null && event.timing();
      return true;
    } else if (item instanceof WorkItem.Wait wait) {
      return startWait(wait.generation());
    } else {
      WorkItem.Sync sync = (WorkItem.Sync) item;
      DeviceExecutionException failure = core.unreported();
      core.setUnreported(null);
      core.itemCompleted();
      if (failure == null) {
        sync.done().complete(null);
      } else {
        sync.done().completeExceptionally(failure);
      }
      return true;
    }
  }

  private boolean startWait(Generation generation) {
    if (generation.isDone()) {
      absorb(generation);
      core.itemCompleted();
      return true;
    }
    blockedOn = generation;
    generation.onComplete(done -> self.tell(new Resume(done)));
    return false;
  }

  /**
   * A failed generation we waited on becomes this stream's failure, reported where it reports next.
   */
  private void absorb(Generation generation) {
    DeviceExecutionException cause = generation.failure();
    if (cause != null && core.unreported() == null) {
      core.setUnreported(
          new DeviceExecutionException(
              core.stream() + " waited on " + generation + ", which failed: " + cause.getMessage(),
              cause.getCause()));
    }
  }

  /** Settles an item the actor will never run, because the stream has stopped. */
  static void fail(WorkItem item, DeviceExecutionException failure) {
    if (item instanceof WorkItem.Record record) {
      record.generation().complete(System.nanoTime(), failure);
    } else if (item instanceof WorkItem.Submit submit) {
      submit.result().completeExceptionally(failure);
    } else if (item instanceof WorkItem.Sync sync) {
      sync.done().completeExceptionally(failure);
    }
  }
}
