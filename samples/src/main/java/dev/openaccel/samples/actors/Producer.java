package dev.openaccel.samples.actors;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.actor.DeviceBehaviors;
import java.io.PrintStream;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * Produces batches on its own device and hands each one to the consumer in a message, together with
 * the event that marks it ready. It never waits: the consumer's stream does. Batch {@code i} holds
 * the numbers {@code i * size + 1 .. (i + 1) * size}.
 *
 * <p>Owns: nothing after {@link Start}; each batch array belongs to the device work that fills it,
 * then to the consumer.
 */
final class Producer extends AbstractBehavior<Producer.Command> {

  sealed interface Command {}

  /** Produce {@code batches} batches of {@code size} numbers on device {@code device}. */
  record Start(int device, int batches, int size) implements Command {}

  private record Produced(int batch, Throwable failure) implements Command {}

  /** A producer with a device context of its own, sending its batches to {@code consumer}. */
  static Behavior<Command> create(ActorRef<Consumer.Command> consumer, PrintStream out) {
    return DeviceBehaviors.withDeviceContext(
        Behaviors.setup(context -> new Producer(context, consumer, out)));
  }

  private final Accelerator accelerator;
  private final ActorRef<Consumer.Command> consumer;
  private final PrintStream out;

  private Producer(
      ActorContext<Command> context, ActorRef<Consumer.Command> consumer, PrintStream out) {
    super(context);
    this.accelerator = Accelerator.get(context.getSystem());
    this.consumer = consumer;
    this.out = out;
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Start.class, this::onStart)
        .onMessage(Produced.class, this::onProduced)
        .build();
  }

  private Behavior<Command> onStart(Start start) {
    accelerator.setDeviceIndex(start.device()); // this actor's device context only
    Stream stream = accelerator.newStream(); // on the current device
    out.printf("producer: on %s, %s%n", accelerator.currentDevice(), stream);
    for (int i = 0; i < start.batches(); i++) {
      long[] batch = new long[start.size()];
      long first = (long) i * start.size() + 1;
      stream.launch("produce " + i, () -> fill(batch, first));
      Event ready = stream.recordEvent();
      consumer.tell(new Consumer.Batch(i, batch, ready));
      int index = i;
      getContext().pipeToSelf(ready.completion(), (done, failure) -> new Produced(index, failure));
    }
    return this;
  }

  private Behavior<Command> onProduced(Produced produced) {
    out.printf(
        "producer: batch %d is ready%s%n",
        produced.batch(), produced.failure() == null ? "" : ", failed: " + produced.failure());
    return this;
  }

  private static void fill(long[] batch, long first) {
    for (int j = 0; j < batch.length; j++) {
      batch[j] = first + j;
    }
  }
}
