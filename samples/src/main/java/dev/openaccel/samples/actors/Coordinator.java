package dev.openaccel.samples.actors;

import dev.openaccel.runtime.Accelerator;
import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * The guardian of the actors sample: starts the observer, then the consumer (on the second device
 * if there is one) and the producer (on the first), and completes {@code result} once the
 * consumer's total is in and the observer has seen every kernel. If a child stops early, the result
 * fails instead of hanging.
 */
final class Coordinator extends AbstractBehavior<Coordinator.Command> {
  private static final Duration ASK_TIMEOUT = Duration.ofSeconds(30);

  sealed interface Command {}

  /** What the run computed. */
  record Summary(long total, int batches, int kernelsSeen) {}

  private record ObserverReady(Throwable failure) implements Command {}

  private record ConsumerFinished(Consumer.Finished finished) implements Command {}

  private record Observed(Integer kernels, Throwable failure) implements Command {}

  private record ChildStopped(String name) implements Command {}

  static Behavior<Command> create(
      int batches, int size, PrintStream out, CompletableFuture<Summary> result) {
    return Behaviors.setup(context -> new Coordinator(context, batches, size, out, result));
  }

  private final int batches;
  private final int size;
  private final PrintStream out;
  private final CompletableFuture<Summary> result;
  private final ActorRef<Observer.Command> observer;
  private Consumer.Finished finished;

  private Coordinator(
      ActorContext<Command> context,
      int batches,
      int size,
      PrintStream out,
      CompletableFuture<Summary> result) {
    super(context);
    this.batches = batches;
    this.size = size;
    this.out = out;
    this.result = result;
    this.observer = context.spawn(Observer.create(out), "observer");
    context.ask(
        Observer.Subscribed.class,
        observer,
        ASK_TIMEOUT,
        Observer.Ready::new,
        (subscribed, failure) -> new ObserverReady(failure));
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(ObserverReady.class, this::onObserverReady)
        .onMessage(ConsumerFinished.class, this::onConsumerFinished)
        .onMessage(Observed.class, this::onObserved)
        .onMessage(ChildStopped.class, this::onChildStopped)
        .build();
  }

  private Behavior<Command> onObserverReady(ObserverReady ready) {
    if (ready.failure() != null) {
      result.completeExceptionally(ready.failure());
      return Behaviors.stopped();
    }
    int devices = Accelerator.get(getContext().getSystem()).deviceCount();
    ActorRef<Consumer.Finished> replyTo =
        getContext().messageAdapter(Consumer.Finished.class, ConsumerFinished::new);
    ActorRef<Consumer.Command> consumer =
        spawnWatched(
            Consumer.create(Math.min(1, devices - 1), batches, observer, replyTo, out), "consumer");
    ActorRef<Producer.Command> producer = spawnWatched(Producer.create(consumer, out), "producer");
    producer.tell(new Producer.Start(0, batches, size));
    return this;
  }

  private <T> ActorRef<T> spawnWatched(Behavior<T> behavior, String name) {
    ActorRef<T> child = getContext().spawn(behavior, name);
    getContext().watchWith(child, new ChildStopped(name));
    return child;
  }

  private Behavior<Command> onConsumerFinished(ConsumerFinished message) {
    finished = message.finished();
    int kernels = 2 * batches; // one produce and one consume kernel per batch
    getContext()
        .ask(
            Integer.class,
            observer,
            ASK_TIMEOUT,
            replyTo -> new Observer.Expect(kernels, replyTo),
            Observed::new);
    return this;
  }

  private Behavior<Command> onObserved(Observed observed) {
    if (observed.failure() != null) {
      result.completeExceptionally(observed.failure());
    } else {
      result.complete(new Summary(finished.total(), finished.batches(), observed.kernels()));
    }
    return this;
  }

  private Behavior<Command> onChildStopped(ChildStopped stopped) {
    result.completeExceptionally(
        new IllegalStateException("the " + stopped.name() + " stopped before the run finished"));
    return this;
  }
}
