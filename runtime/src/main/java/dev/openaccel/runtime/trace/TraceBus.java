package dev.openaccel.runtime.trace;

import org.apache.pekko.actor.typed.ActorRef;

/**
 * Delivers {@link TraceEvent}s to subscribed actors, such as a {@code TestProbe<TraceEvent>}'s ref.
 * Costs nothing on the hot path while nobody subscribes. A subscriber that stops is removed. This
 * interface is thread-safe.
 *
 * <p>A module built on the public API that runs work of its own (the cluster module's collectives)
 * reports it here too: it checks {@link #enabled()}, and only then builds an event and hands it to
 * {@link #publish}, so its tracing costs nothing while nobody listens.
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

  /**
   * Whether anybody listens: a subscriber, or a flight recording with {@code dev.openaccel.Trace}
   * enabled. Check it before building an event. This method is thread-safe.
   */
  boolean enabled();

  /**
   * Sends {@code event} to every subscriber (and to the flight recording, while one runs), as the
   * runtime sends its own events. For modules that report work of their own; the runtime's own
   * event kinds are the runtime's to report. This method is thread-safe and never blocks.
   *
   * @throws NullPointerException if {@code event} is null
   */
  void publish(TraceEvent event);
}
