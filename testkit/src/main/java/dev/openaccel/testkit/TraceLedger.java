package dev.openaccel.testkit;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.trace.TraceBus;
import dev.openaccel.runtime.trace.TraceEvent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * Keeps the books of one test from an accelerator's trace bus: the streams it created, and the
 * events and device buffers it created and has not closed. Subscribes when it starts (so any reply
 * of it proves the subscription is in place) and unsubscribes on {@link Stop} (an actor system that
 * terminates drops it too). The bus delivers an event as a message from the thread that published
 * it; the runtime publishes creation and close at the call, so once the test's thread returned and
 * the devices are synchronized, a {@link Report} asked afterwards is answered after every event
 * published before the ask.
 *
 * <p>Owns: {@code streams}, {@code events} and {@code buffers}, written only by this actor.
 */
final class TraceLedger extends AbstractBehavior<TraceLedger.Command> {

  /** The ledger's protocol. */
  sealed interface Command {}

  /** Asks for what is open now. */
  record Report(ActorRef<Open> replyTo) implements Command {}

  /** Stops the ledger, which unsubscribes from the bus. */
  enum Stop implements Command {
    INSTANCE
  }

  private record Traced(TraceEvent event) implements Command {}

  /**
   * What the test left open, at the time of a {@link Report}.
   *
   * @param streams the streams created since the ledger started (open or not)
   * @param events the backend events created and not deleted, described
   * @param buffers the device buffers allocated and not freed, described
   */
  record Open(List<StreamKey> streams, List<String> events, List<String> buffers) {
    Open {
      streams = List.copyOf(streams);
      events = List.copyOf(events);
      buffers = List.copyOf(buffers);
    }
  }

  /** A stream by its device and id. */
  record StreamKey(Device device, long id) {
    StreamKey {
      Objects.requireNonNull(device, "device");
    }
  }

  private record EventKey(DeviceType type, long id) {}

  private record BufferKey(Device device, long id) {}

  static Behavior<Command> create(TraceBus bus) {
    return Behaviors.setup(context -> new TraceLedger(context, bus));
  }

  private final TraceBus bus;
  private final ActorRef<TraceEvent> subscriber;
  private final List<StreamKey> streams = new ArrayList<>();
  private final Map<EventKey, Device> events = new LinkedHashMap<>();
  private final Map<BufferKey, Long> buffers = new LinkedHashMap<>();

  private TraceLedger(ActorContext<Command> context, TraceBus bus) {
    super(context);
    this.bus = bus;
    this.subscriber = context.messageAdapter(TraceEvent.class, Traced::new);
    bus.subscribe(subscriber);
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Traced.class, this::onTraced)
        .onMessage(Report.class, this::onReport)
        .onMessageEquals(Stop.INSTANCE, this::onStop)
        .build();
  }

  private Behavior<Command> onTraced(Traced traced) {
    TraceEvent event = traced.event();
    if (event instanceof TraceEvent.StreamCreated created) {
      streams.add(new StreamKey(created.device(), created.streamId()));
    } else if (event instanceof TraceEvent.EventCreated created) {
      events.put(new EventKey(created.device().type(), created.eventId()), created.device());
    } else if (event instanceof TraceEvent.EventDeleted deleted) {
      events.remove(new EventKey(deleted.device().type(), deleted.eventId()));
    } else if (event instanceof TraceEvent.MemoryAllocated allocated) {
      buffers.put(new BufferKey(allocated.device(), allocated.bufferId()), allocated.bytes());
    } else if (event instanceof TraceEvent.MemoryFreed freed) {
      buffers.remove(new BufferKey(freed.device(), freed.bufferId()));
    }
    return this;
  }

  private Behavior<Command> onReport(Report report) {
    List<String> openEvents = new ArrayList<>();
    events.forEach((key, device) -> openEvents.add("event " + key.id() + " on " + device));
    List<String> openBuffers = new ArrayList<>();
    buffers.forEach(
        (key, bytes) ->
            openBuffers.add("buffer " + key.id() + " (" + bytes + " bytes) on " + key.device()));
    report.replyTo().tell(new Open(streams, openEvents, openBuffers));
    return this;
  }

  // Here rather than at PostStop: the bus also drops a subscriber that stops, and unsubscribing
  // after that would be refused.
  private Behavior<Command> onStop() {
    bus.unsubscribe(subscriber);
    return Behaviors.stopped();
  }
}
