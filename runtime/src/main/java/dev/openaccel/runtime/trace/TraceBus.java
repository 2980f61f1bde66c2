package dev.openaccel.runtime.trace;

import org.apache.pekko.actor.typed.ActorRef;

/**
 * Delivers {@link TraceEvent}s to subscribed actors, such as a {@code TestProbe<TraceEvent>}'s ref.
 * Costs nothing on the hot path while nobody subscribes. A subscriber that stops is removed. This
 * interface is thread-safe.
 */
public interface TraceBus {

  /**
   * Starts sending every trace event to {@code subscriber}.
   *
   * @throws NullPointerException if {@code subscriber} is null
   * @throws IllegalArgumentException if it is already subscribed
   */
  void subscribe(ActorRef<TraceEvent> subscriber);

  /**
   * Stops sending to {@code subscriber}.
   *
   * @throws IllegalArgumentException if it is not subscribed (for example, unsubscribed twice)
   */
  void unsubscribe(ActorRef<TraceEvent> subscriber);
}
