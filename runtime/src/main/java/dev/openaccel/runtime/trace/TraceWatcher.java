package dev.openaccel.runtime.trace;

import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * Watches trace subscribers and removes those that stop, so the bus never sends into the void.
 * Internal to the trace package.
 */
final class TraceWatcher extends AbstractBehavior<TraceWatcher.Command> {

  sealed interface Command {}

  record Watch(ActorRef<TraceEvent> subscriber) implements Command {}

  record Unwatch(ActorRef<TraceEvent> subscriber) implements Command {}

  private record Stopped(ActorRef<TraceEvent> subscriber) implements Command {}

  static Behavior<Command> create(Tracer tracer) {
    return Behaviors.setup(context -> new TraceWatcher(context, tracer));
  }

  private final Tracer tracer;

  private TraceWatcher(ActorContext<Command> context, Tracer tracer) {
    super(context);
    this.tracer = tracer;
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Watch.class, this::onWatch)
        .onMessage(Unwatch.class, this::onUnwatch)
        .onMessage(Stopped.class, this::onStopped)
        .build();
  }

  private Behavior<Command> onWatch(Watch watch) {
    getContext().watchWith(watch.subscriber(), new Stopped(watch.subscriber()));
    return this;
  }

  private Behavior<Command> onUnwatch(Unwatch unwatch) {
    getContext().unwatch(unwatch.subscriber());
    return this;
  }

  private Behavior<Command> onStopped(Stopped stopped) {
    tracer.removeStopped(stopped.subscriber());
    return this;
  }
}
