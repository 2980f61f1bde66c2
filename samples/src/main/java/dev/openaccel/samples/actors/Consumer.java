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
 * Sums the squares of each batch on its own device. Its stream waits for the producer's event (on
 * another device) before the kernel reads the batch, so no thread blocks and the read is ordered
 * after the write. Results come back as messages through {@code pipeToSelf}.
 *
 * <p>Owns: its stream and the running total.
 */
final class Consumer extends AbstractBehavior<Consumer.Command> {

  sealed interface Command {}

  /** A batch produced on another stream; {@code ready} completes once it is filled. */
  record Batch(int index, long[] numbers, Event ready) implements Command {}

  /** What the consumer reports when all batches are summed and its stream has drained. */
  record Finished(long total, int batches) {}

  private record Summed(int index, long sum) implements Command {}

  private record Drained(Throwable failure) implements Command {}

  private record Failed(String what, Throwable cause) implements Command {}

  /**
   * A consumer with a device context of its own on {@code device}, expecting {@code batches}
   * batches; it asks {@code observer} to watch its last event and reports to {@code replyTo}.
   */
  static Behavior<Command> create(
      int device,
      int batches,
      ActorRef<Observer.Command> observer,
      ActorRef<Finished> replyTo,
      PrintStream out) {
    return DeviceBehaviors.withDeviceContext(
        Behaviors.setup(context -> new Consumer(context, device, batches, observer, replyTo, out)));
  }

  private final Accelerator accelerator;
  private final int device;
  private final int batches;
  private final ActorRef<Observer.Command> observer;
  private final ActorRef<Finished> replyTo;
  private final PrintStream out;
  private Stream stream;
  private int summed;
  private long total;

  private Consumer(
      ActorContext<Command> context,
      int device,
      int batches,
      ActorRef<Observer.Command> observer,
      ActorRef<Finished> replyTo,
      PrintStream out) {
    super(context);
    this.accelerator = Accelerator.get(context.getSystem());
    this.device = device;
    this.batches = batches;
    this.observer = observer;
    this.replyTo = replyTo;
    this.out = out;
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Batch.class, this::onBatch)
        .onMessage(Summed.class, this::onSummed)
        .onMessage(Drained.class, this::onDrained)
        .onMessage(Failed.class, this::onFailed)
        .build();
  }

  private Behavior<Command> onBatch(Batch batch) {
    if (stream == null) {
      accelerator.setDeviceIndex(device); // this actor's device context only
      stream = accelerator.newStream();
      out.printf("consumer: on %s, %s%n", accelerator.currentDevice(), stream);
    }
    stream.waitEvent(batch.ready()); // the stream parks until the batch is filled
    getContext()
        .pipeToSelf(
            stream.submit("consume " + batch.index(), () -> sumOfSquares(batch.numbers())),
            (sum, failure) ->
                failure == null
                    ? new Summed(batch.index(), sum)
                    : new Failed("consume " + batch.index(), failure));
    return this;
  }

  private Behavior<Command> onSummed(Summed result) {
    out.printf("consumer: batch %d sums to %d%n", result.index(), result.sum());
    total += result.sum();
    if (++summed == batches) {
      Event drained = stream.recordEvent();
      observer.tell(new Observer.Watch(drained, "consumer's last record"));
      getContext().pipeToSelf(drained.completion(), (done, failure) -> new Drained(failure));
    }
    return this;
  }

  private Behavior<Command> onDrained(Drained drained) {
    if (drained.failure() != null) {
      return onFailed(new Failed("drain", drained.failure()));
    }
    replyTo.tell(new Finished(total, summed));
    return this;
  }

  private Behavior<Command> onFailed(Failed failed) {
    throw new IllegalStateException(failed.what() + " failed", failed.cause());
  }

  private static long sumOfSquares(long[] numbers) {
    long sum = 0;
    for (long n : numbers) {
      sum += n * n;
    }
    return sum;
  }
}
