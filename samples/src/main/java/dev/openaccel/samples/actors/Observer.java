package dev.openaccel.samples.actors;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.actor.EventSignal;
import dev.openaccel.runtime.trace.TraceEvent;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.Map;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * Prints what the runtime reports: kernels and cross-stream waits from the trace bus, and the
 * signal of events it is asked to watch ({@code Event.subscribe}). It subscribes to the trace bus
 * before it handles its first message, so an answered {@link Ready} means nothing is missed.
 *
 * <p>Owns: the start times of running kernels, where events were recorded, the count of finished
 * kernels.
 */
final class Observer extends AbstractBehavior<Observer.Command> {

  sealed interface Command {}

  /** Answers {@link Subscribed#INSTANCE} once the observer listens to the trace bus. */
  record Ready(ActorRef<Subscribed> replyTo) implements Command {}

  /** The reply to {@link Ready}. */
  enum Subscribed {
    INSTANCE
  }

  /** Subscribes to {@code event} and prints the signal of its latest record. */
  record Watch(Event event, String what) implements Command {}

  /** Answers the number of finished kernels seen, once it is at least {@code kernels}. */
  record Expect(int kernels, ActorRef<Integer> replyTo) implements Command {}

  private record Traced(TraceEvent event) implements Command {}

  private record Signalled(EventSignal signal) implements Command {}

  private record StreamKey(int device, long streamId) {}

  static Behavior<Command> create(PrintStream out) {
    return Behaviors.setup(context -> new Observer(context, out));
  }

  private final PrintStream out;
  private final ActorRef<EventSignal> signals;
  private final Map<StreamKey, Long> started = new HashMap<>();
  private final Map<Long, String> watched = new HashMap<>();
  private final Map<Long, String> recordedOn = new HashMap<>();
  private int finished;
  private Expect expected;

  private Observer(ActorContext<Command> context, PrintStream out) {
    super(context);
    this.out = out;
    this.signals = context.messageAdapter(EventSignal.class, Signalled::new);
    Accelerator.get(context.getSystem())
        .trace()
        .subscribe(context.messageAdapter(TraceEvent.class, Traced::new));
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Ready.class, this::onReady)
        .onMessage(Watch.class, this::onWatch)
        .onMessage(Expect.class, this::onExpect)
        .onMessage(Traced.class, this::onTraced)
        .onMessage(Signalled.class, this::onSignalled)
        .build();
  }

  private Behavior<Command> onReady(Ready ready) {
    ready.replyTo().tell(Subscribed.INSTANCE);
    return this;
  }

  private Behavior<Command> onWatch(Watch watch) {
    watched.put(watch.event().id(), watch.what());
    watch.event().subscribe(signals);
    return this;
  }

  private Behavior<Command> onExpect(Expect expect) {
    expected = expect;
    answer();
    return this;
  }

  private Behavior<Command> onTraced(Traced traced) {
    TraceEvent event = traced.event();
    if (event instanceof TraceEvent.KernelStarted s) {
      started.put(new StreamKey(s.device().index(), s.streamId()), s.atNanos());
    } else if (event instanceof TraceEvent.KernelFinished f) {
      Long from = started.remove(new StreamKey(f.device().index(), f.streamId()));
      double ms = from == null ? Double.NaN : (f.atNanos() - from) / 1e6;
      out.printf(
          "  [trace]  %s stream %d ran '%s' in %.2f ms%s%n",
          f.device(), f.streamId(), f.kernel(), ms, f.failed() ? " (failed)" : "");
      finished++;
      answer();
    } else if (event instanceof TraceEvent.EventRecorded r) {
      recordedOn.put(r.eventId(), r.device() + " stream " + r.streamId());
    } else if (event instanceof TraceEvent.EventWaited w) {
      out.printf(
          "  [trace]  %s stream %d waits for event %d (record %d, on %s)%n",
          w.device(),
          w.streamId(),
          w.eventId(),
          w.generation(),
          recordedOn.getOrDefault(w.eventId(), "an unseen stream"));
    }
    return this;
  }

  private Behavior<Command> onSignalled(Signalled signalled) {
    EventSignal signal = signalled.signal();
    String what = watched.getOrDefault(signal.eventId(), "event " + signal.eventId());
    if (signal instanceof EventSignal.Failed failed) {
      out.printf(
          "  [signal] %s: record %d failed: %s%n", what, signal.generation(), failed.cause());
    } else {
      out.printf("  [signal] %s: record %d completed%n", what, signal.generation());
    }
    return this;
  }

  private void answer() {
    if (expected != null && finished >= expected.kernels()) {
      expected.replyTo().tell(finished);
      expected = null;
    }
  }
}
