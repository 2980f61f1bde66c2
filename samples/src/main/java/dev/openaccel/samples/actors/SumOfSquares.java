package dev.openaccel.samples.actors;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.actor.EventSignal;
import java.util.Objects;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * Sums squares on a device stream and answers with messages; it never blocks. Each {@link Sum}
 * becomes a kernel on the actor's stream ({@code submit}), whose result comes back to the actor as
 * a message ({@code pipeToSelf}); {@link WhenIdle} records an event on the stream and has the
 * runtime send its signal straight to the asker ({@code Event.subscribe}).
 *
 * <p>Owns: its stream, created when the actor starts.
 */
public final class SumOfSquares extends AbstractBehavior<SumOfSquares.Command> {

  /** What the actor accepts. */
  public sealed interface Command {}

  /** Sum the squares of 1 to {@code upTo} on the device; the reply is a {@link Reply}. */
  public record Sum(int upTo, ActorRef<Reply> replyTo) implements Command {
    /** Rejects a negative {@code upTo} with {@link IllegalArgumentException}. */
    public Sum {
      if (upTo < 0) {
        throw new IllegalArgumentException("upTo must be >= 0, got " + upTo);
      }
      Objects.requireNonNull(replyTo, "replyTo");
    }
  }

  /**
   * Send {@code replyTo} one {@link EventSignal} once every {@link Sum} sent before is computed.
   */
  public record WhenIdle(ActorRef<EventSignal> replyTo) implements Command {}

  /** The answer to a {@link Sum}. */
  public sealed interface Reply {}

  /** The sum of the squares of 1 to {@code upTo}. */
  public record Summed(int upTo, long sum) implements Reply {}

  /** The kernel failed: {@code cause} is the {@code DeviceExecutionException} that says why. */
  public record Failed(int upTo, Throwable cause) implements Reply {}

  private record Computed(Sum request, Long sum, Throwable failure) implements Command {}

  /** An actor whose kernels run on a new stream of {@code device}. */
  public static Behavior<Command> create(Device device) {
    return Behaviors.setup(context -> new SumOfSquares(context, device));
  }

  private final Stream stream;

  private SumOfSquares(ActorContext<Command> context, Device device) {
    super(context);
    this.stream = Accelerator.get(context.getSystem()).newStream(device);
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Sum.class, this::onSum)
        .onMessage(Computed.class, this::onComputed)
        .onMessage(WhenIdle.class, this::onWhenIdle)
        .build();
  }

  private Behavior<Command> onSum(Sum request) {
    getContext()
        .pipeToSelf( // the kernel runs on a device thread; its result comes back as a message
            stream.submit("sum of squares to " + request.upTo(), () -> squares(request.upTo())),
            (sum, failure) -> new Computed(request, sum, failure));
    return this;
  }

  private Behavior<Command> onComputed(Computed computed) {
    int upTo = computed.request().upTo();
    computed
        .request()
        .replyTo()
        .tell(
            computed.failure() == null
                ? new Summed(upTo, computed.sum())
                : new Failed(upTo, computed.failure()));
    return this;
  }

  private Behavior<Command> onWhenIdle(WhenIdle request) {
    try (Event idle = stream.recordEvent()) { // closing it keeps the signal coming
      idle.subscribe(request.replyTo()); // the runtime sends the signal itself
    }
    return this;
  }

  /** The kernel: throws {@link ArithmeticException} once the sum overflows a {@code long}. */
  private static long squares(int upTo) {
    long sum = 0;
    for (long i = 1; i <= upTo; i++) {
      sum = Math.addExact(sum, i * i);
    }
    return sum;
  }
}
