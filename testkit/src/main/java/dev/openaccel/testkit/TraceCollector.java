package dev.openaccel.testkit;

import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.actor.EventSignal;
import dev.openaccel.runtime.trace.TraceBus;
import dev.openaccel.runtime.trace.TraceEvent;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * The actor behind a {@link TraceProbe}: subscribes to an accelerator's trace bus when it starts
 * and writes each event it receives into the probe's {@link TraceLog}; unsubscribes on {@link
 * Stop}. The bus delivers an event as a message from the thread that published it, so a {@link
 * Flush} is answered after every event published before it was sent (and its first answer proves
 * the subscription is in place).
 *
 * <p>Owns: nothing of its own; it is the only writer of the probe's {@link TraceLog}.
 */
final class TraceCollector extends AbstractBehavior<TraceCollector.Command> {

  /** The collector's protocol. */
  sealed interface Command {}

  /** Answers {@code replyTo} once every earlier message has been handled. */
  record Flush(ActorRef<Done> replyTo) implements Command {}

  /** Subscribes {@code replyTo} to {@code event}'s latest record ({@link Event#subscribe}). */
  record Subscribe(Event event, ActorRef<EventSignal> replyTo) implements Command {}

  /** Stops the collector, which unsubscribes from the bus. */
  enum Stop implements Command {
    INSTANCE
  }

  private record Traced(TraceEvent event) implements Command {}

  static Behavior<Command> create(TraceBus bus, TraceLog log) {
    return Behaviors.setup(context -> new TraceCollector(context, bus, log));
  }

  private final TraceBus bus;
  private final TraceLog log;
  private final ActorRef<TraceEvent> subscriber;

  private TraceCollector(ActorContext<Command> context, TraceBus bus, TraceLog log) {
    super(context);
    this.bus = bus;
    this.log = log;
    this.subscriber = context.messageAdapter(TraceEvent.class, Traced::new);
    bus.subscribe(subscriber);
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Traced.class, this::onTraced)
        .onMessage(Flush.class, this::onFlush)
        .onMessage(Subscribe.class, this::onSubscribe)
        .onMessageEquals(Stop.INSTANCE, this::onStop)
        .build();
  }

  private Behavior<Command> onTraced(Traced traced) {
    log.add(traced.event());
    return this;
  }

  private Behavior<Command> onFlush(Flush flush) {
    flush.replyTo().tell(Done.getInstance());
    return this;
  }

  private Behavior<Command> onSubscribe(Subscribe subscribe) {
    subscribe.event().subscribe(subscribe.replyTo());
    return this;
  }

  // Here rather than at PostStop: the bus also drops a subscriber that stops, and unsubscribing
  // after that would be refused.
  private Behavior<Command> onStop() {
    bus.unsubscribe(subscriber);
    return Behaviors.stopped();
  }
}
