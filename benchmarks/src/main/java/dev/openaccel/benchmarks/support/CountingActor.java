package dev.openaccel.benchmarks.support;

import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * The raw Pekko baseline: an actor that counts the messages it is told, and answers a flush with
 * its count once every message told before it has been handled.
 */
public final class CountingActor extends AbstractBehavior<CountingActor.Command> {

  /** The protocol. */
  public sealed interface Command {}

  /** Count one. */
  public enum Increment implements Command {
    INSTANCE
  }

  /** Complete {@code replyTo} with the count so far. */
  public record Flush(CompletableFuture<Long> replyTo) implements Command {}

  public static Behavior<Command> create() {
    return Behaviors.setup(CountingActor::new);
  }

  private long count;

  private CountingActor(ActorContext<Command> context) {
    super(context);
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessageEquals(Increment.INSTANCE, this::onIncrement)
        .onMessage(Flush.class, this::onFlush)
        .build();
  }

  private Behavior<Command> onIncrement() {
    count++;
    return this;
  }

  private Behavior<Command> onFlush(Flush flush) {
    flush.replyTo().complete(count);
    return this;
  }
}
