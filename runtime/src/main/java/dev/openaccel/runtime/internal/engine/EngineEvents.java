package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.EventHandle;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.InlineEvent;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.actor.EventSignal;
import dev.openaccel.runtime.spi.BackendEvent;
import dev.openaccel.runtime.spi.Capability;
import dev.openaccel.runtime.spi.DeviceControlSlot;
import dev.openaccel.runtime.spi.Engine;
import dev.openaccel.runtime.spi.EventChecks;
import dev.openaccel.runtime.spi.EventFlag;
import dev.openaccel.runtime.spi.VirtualGuardImpl;
import dev.openaccel.runtime.trace.TraceEvent;
import dev.openaccel.runtime.trace.Tracer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * The event half of the actor engine, as the {@link Engine} calls of events land on it: {@link
 * EngineEvent}s whose records are {@link Generation}s enqueued on streams. {@link ActorEngine}, the
 * engine itself, extends it with the devices and streams. The contract's checks are made once,
 * before a call gets here (by {@code InlineEvent} through {@link EventChecks}); for a direct caller
 * of the SPI, this class checks the flag and the cross-device wait through {@link EventChecks} too,
 * and that the event is of this backend. Internal.
 *
 * <p>Owns: event ids and the table of exported (interprocess) events, both thread-safe.
 */
abstract class EngineEvents implements Engine {
  private static final Duration FOREVER = Duration.ofNanos(Long.MAX_VALUE);

  private final Tracer tracer;
  private final String node;
  private final VirtualGuardImpl router;
  private final AtomicLong ids = new AtomicLong();
  private final Map<Long, EngineEvent> exported = new ConcurrentHashMap<>();
  private final Sanitizer sanitizer; // null unless openaccel.sanitizer is throw or log
  private final DeviceControlSlot control;
  private final Captures captures = new Captures();

  /**
   * @param node the address of the actor system, named in exported handles
   * @param sanitizer whether this engine runs the stream sanitizer, and how it reports
   * @param control where a test's device control is installed
   */
  @SuppressWarnings("this-escape") // the router only keeps the reference
  EngineEvents(Tracer tracer, String node, SanitizerMode sanitizer, DeviceControlSlot control) {
    this.tracer = tracer;
    this.control = control;
    this.node = node;
    this.sanitizer = Sanitizer.of(sanitizer);
    this.router = new VirtualGuardImpl(this);
  }

  /** Where a test's {@link dev.openaccel.runtime.spi.DeviceControl} is installed. */
  final DeviceControlSlot control() {
    return control;
  }

  /** The stream sanitizer, or null when {@code openaccel.sanitizer} is {@code off}. */
  final Sanitizer sanitizer() {
    return sanitizer;
  }

  /** Tells the sanitizer, if any, that the host synchronized with device {@code index}. */
  final void deviceSynchronized(int index) {
    if (sanitizer != null) {
      sanitizer.hostSynchronized(index);
    }
  }

  /** See {@link ActorEngine#checkMayBlock}. */
  abstract void checkMayBlock(String call, String asyncAlternative);

  /** The engine side of {@code stream}; see {@link ActorEngine#handleOf}. */
  abstract StreamQueue handleOf(Stream stream);

  /** Throws the backend's "doesn't support" error unless {@code capability} is declared. */
  final void require(Capability capability, String what) {
    if (!capabilities().contains(capability)) {
      throw unsupported(what);
    }
  }

  /** A new generic event of this engine's device type, for {@code Stream.recordEvent()}. */
  InlineEvent newEvent(EventOptions options) {
    return InlineEvent.create(router, options);
  }

  /** The captures in progress of this engine's streams. */
  final Captures captures() {
    return captures;
  }

  /** Records {@code e} (created now if null) on {@code s}. */
  @Override
  public final BackendEvent record(BackendEvent e, Stream s, int deviceIndex, EventFlag flag) {
    StreamQueue stream = handleOf(s);
    EventChecks.checkFlag(this, flag);
    EngineEvent event;
    long generation;
    Capture capture = stream.capture();
    if (capture != null) { // a node of the graph; the event changes only when a replay records it
      event = e == null ? create(stream, flag == EventFlag.BACKEND_DEFAULT) : own(e);
      capture.record(event, stream);
      return event;
    }
    if (e == null) {
      event = create(stream, flag == EventFlag.BACKEND_DEFAULT);
      generation = event.recordUnlocked(stream); // not yet seen by any other thread
    } else {
      event = own(e);
      generation = event.record(stream);
    }
    if (tracer.enabled()) {
      tracer.publish(
          new TraceEvent.EventRecorded(
              stream.stream().device(),
              event.id(),
              stream.stream().id(),
              generation,
              System.nanoTime()));
    }
    return event;
  }

  private EngineEvent create(StreamQueue stream, boolean timing) {
    int device = stream.stream().deviceIndex();
    EngineEvent event = new EngineEvent(nextId(), device, timing);
    if (tracer.enabled()) {
      tracer.publish(
          new TraceEvent.EventCreated(stream.stream().device(), event.id(), System.nanoTime()));
    }
    return event;
  }

  /** A non-zero id that fits an event's key; wraps after 2^48 events. */
  private long nextId() {
    long id;
    do {
      id = ids.incrementAndGet() & EngineEvent.ID_MASK;
    } while (id == 0);
    return id;
  }

  /** Makes {@code s} wait for the latest record of {@code e}, if it has one. */
  @Override
  public final void block(BackendEvent e, Stream s) {
    StreamQueue stream = handleOf(s);
    EngineEvent event = own(e);
    EventChecks.checkWaitable(this, event.deviceIndex(), s);
    Capture capture = stream.capture() != null ? stream.capture() : captures.of(event);
    if (capture != null) { // a wait in the graph; a stream not captured yet joins the capture
      capture.block(event, stream);
      return;
    }
    Generation latest = event.block(stream);
    if (latest != null && tracer.enabled()) {
      tracer.publish(
          new TraceEvent.EventWaited(
              stream.stream().device(),
              event.id(),
              stream.stream().id(),
              latest.number(),
              System.nanoTime()));
    }
  }

  @Override
  public final boolean queryEvent(BackendEvent e) {
    return captures.notCaptured(own(e), "Event.query() or Event.synchronize()").isComplete();
  }

  @Override
  public final void synchronizeEvent(BackendEvent e) {
    synchronizeEvent(e, FOREVER);
  }

  /**
   * Blocks until the latest record completes; false if {@code timeout} passed first. Rejects a
   * caller on a thread of the engine's actor system, which the entry point cannot tell.
   */
  @Override
  public final boolean synchronizeEvent(BackendEvent e, Duration timeout) {
    checkMayBlock("Event.synchronize()", "Event.completion()"); // the caller checked device threads
    EngineEvent event = captures.notCaptured(own(e), "Event.synchronize()");
    boolean done = awaitLatest(event, timeout);
    if (done && sanitizer != null) {
      sanitizer.hostSynchronized(event);
    }
    return done;
  }

  private boolean awaitLatest(EngineEvent event, Duration timeout) {
    if (tracer.enabled() && event.wasRecorded()) {
      tracer.publish(
          new TraceEvent.EventSynchronized(device(event), event.id(), System.nanoTime()));
    }
    Generation latest = event.toWaitFor();
    if (latest == null) {
      return true; // never recorded, or completed without failure
    }
    if (!latest.isDone() && !latest.await(timeout == FOREVER ? null : timeout, control.get())) {
      return false;
    }
    latest.throwIfFailed();
    return true;
  }

  @Override
  public final CompletionStage<Void> eventCompletion(BackendEvent e) {
    Generation latest = captures.notCaptured(own(e), "Event.completion()").latest();
    return latest == null ? CompletableFuture.completedStage(null) : latest.toStage();
  }

  @Override
  public final void subscribe(BackendEvent e, ActorRef<EventSignal> subscriber) {
    EngineEvent event = own(e);
    Generation latest = event.latest();
    if (latest == null) {
      subscriber.tell(new EventSignal.Completed(event.id(), 0, System.nanoTime()));
      return;
    }
    latest.onComplete(
        done ->
            subscriber.tell(
                done.failure() == null
                    ? new EventSignal.Completed(event.id(), done.number(), done.completedAtNanos())
                    : new EventSignal.Failed(
                        event.id(), done.number(), Failures.copy(done.failure()))));
  }

  /** Releases {@code e}: it is no longer exported. Never throws. */
  @Override
  public final void destroyEvent(BackendEvent e, int deviceIndex) {
    if (e instanceof EngineEvent event) {
      if (!exported.isEmpty()) { // most events are never exported: no lookup for them
        exported.remove(event.id(), event);
      }
      if (tracer.enabled()) {
        tracer.publish(new TraceEvent.EventDeleted(device(event), event.id(), System.nanoTime()));
      }
    }
  }

  /** Milliseconds between two completed records; throws the failure of either. */
  @Override
  public final double elapsedTime(BackendEvent start, BackendEvent end, int deviceIndex) {
    require(Capability.TIMING, "elapsed time");
    Generation first = own(start).latest();
    Generation second = own(end).latest();
    first.throwIfFailed();
    second.throwIfFailed();
    return (second.completedAtNanos() - first.completedAtNanos()) / 1_000_000.0;
  }

  @Override
  public final EventHandle exportEvent(BackendEvent e) {
    require(Capability.INTERPROCESS_EVENTS, "interprocess events");
    EngineEvent event = own(e);
    exported.put(event.id(), event);
    return new EventHandle(type(), event.deviceIndex(), event.id(), node);
  }

  @Override
  public final BackendEvent openEvent(long eventId) {
    require(Capability.INTERPROCESS_EVENTS, "interprocess events");
    EngineEvent event = exported.get(eventId);
    if (event == null) {
      throw new IllegalArgumentException(
          "no live interprocess " + type() + " event with id " + eventId + " in this accelerator");
    }
    return event;
  }

  private Device device(EngineEvent event) {
    return Device.of(type(), event.deviceIndex());
  }

  private EngineEvent own(BackendEvent e) {
    if (e instanceof EngineEvent event) {
      return event;
    }
    throw new IllegalArgumentException(e + " is not an event of the " + type() + " backend");
  }
}
