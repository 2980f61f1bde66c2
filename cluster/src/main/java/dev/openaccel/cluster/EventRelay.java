package dev.openaccel.cluster;

import dev.openaccel.cluster.GatewayProtocol.Reply;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.actor.EventSignal;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * Answers {@link GatewayProtocol.Latest}: the state of the owner's latest record of an event as of
 * now, or, with {@code await}, that record's completion, through a one-shot relay actor subscribed
 * to the event. The requester sent the request after everything it had received from this node, so
 * a record made here before telling it anything is already the latest or older than it. Internal.
 *
 * <p>Owns nothing; each relay lives for one signal.
 */
final class EventRelay {
  private EventRelay() {}

  static void answer(LocalNode local, ActorContext<?> context, GatewayProtocol.Latest m) {
    Event view;
    try {
      view = local.openLocal(m.handle());
      if (!m.await()) {
        m.replyTo()
            .tell(
                new GatewayProtocol.EventState(
                    m.requestId(), m.handle().eventId(), 0, view.query(), 0, null));
        return;
      }
    } catch (RuntimeException e) {
      m.replyTo().tell(Failures.reply(m.requestId(), e));
      return;
    }
    view.subscribe(context.spawnAnonymous(relay(m.requestId(), m.replyTo())));
  }

  /** Forwards the one signal of a subscription as an answer, then stops. */
  private static Behavior<EventSignal> relay(long requestId, ActorRef<Reply> replyTo) {
    return Behaviors.receive(EventSignal.class)
        .onMessage(
            EventSignal.Completed.class,
            done -> {
              replyTo.tell(
                  new GatewayProtocol.EventState(
                      requestId,
                      done.eventId(),
                      done.generation(),
                      true,
                      done.completedAtNanos(),
                      null));
              return Behaviors.stopped();
            })
        .onMessage(
            EventSignal.Failed.class,
            failed -> {
              replyTo.tell(
                  new GatewayProtocol.EventState(
                      requestId,
                      failed.eventId(),
                      failed.generation(),
                      true,
                      0,
                      String.valueOf(failed.cause().getMessage())));
              return Behaviors.stopped();
            })
        .build();
  }
}
