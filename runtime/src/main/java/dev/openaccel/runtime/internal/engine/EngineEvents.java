package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.EventHandle;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.InlineEvent;
import dev.openaccel.runtime.actor.EventSignal;
import dev.openaccel.runtime.spi.BackendEvent;
import dev.openaccel.runtime.spi.Capability;
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
 * The events of one engine: {@link EngineEvent}s whose records are {@link Generation}s enqueued on
 * streams. The contract's argument checks are made once, before a call gets here (by {@code
 * InlineEvent} through {@code EventChecks}); this class only executes. Internal.
 *
 * <p>Owns: event ids and the table of exported (interprocess) events, both thread-safe.
 */
final class EngineEvents {
  private static final Duration FOREVER = Duration.ofNanos(Long.MAX_VALUE);

  private final ActorEngine engine;
  private final Tracer tracer;
  private final String node;
  private final VirtualGuardImpl router;
  private final AtomicLong ids = new AtomicLong();
  private final Map<Long, EngineEvent> exported = new ConcurrentHashMap<>();

  EngineEvents(ActorEngine engine, String node) {
    this.engine = engine;
    this.tracer = engine.tracer();
    this.node = node;
    this.router = new VirtualGuardImpl(engine);
  }

  /** A new generic event of this engine's device type, for {@code Stream.recordEvent()}. */
  InlineEvent newEvent(EventOptions options) {
    return InlineEvent.create(router, options);
  }

  /** Records {@code e} (created now if null) on {@code stream}. */
  BackendEvent record(BackendEvent e, StreamHandle stream, EventFlag flag) {
    engine.require(Capability.EVENTS, "events");
    if (flag == null || flag == EventFlag.INVALID) {
      throw new IllegalArgumentException("invalid event flag " + flag + " for " + engine.type());
    }
    if (flag == EventFlag.BACKEND_DEFAULT) {
      engine.require(Capability.TIMING, "timing events (enable_timing)");
    }
    EngineEvent event;
    long generation;
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

  private EngineEvent create(StreamHandle stream, boolean timing) {
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

  /** Makes {@code stream} wait for the latest record of {@code e}, if it has one. */
  void block(BackendEvent e, StreamHandle stream) {
    EngineEvent event = own(e);
    if (event.deviceIndex() != stream.stream().deviceIndex()) {
      engine.require(Capability.CROSS_DEVICE_WAIT, "waiting on an event of another device");
    }
    Generation latest = event.latest();
    if (latest == null) {
      return;
    }
    if (!latest.succeeded()) {
      stream.enqueue(new WorkItem.Wait(latest));
    }
    if (tracer.enabled()) {
      tracer.publish(
          new TraceEvent.EventWaited(
              stream.stream().device(),
              event.id(),
              stream.stream().id(),
              latest.number(),
              System.nanoTime()));
    }
  }

  boolean query(BackendEvent e) {
    return own(e).isComplete();
  }

  /**
   * Blocks until the latest record completes; false if {@code timeout} (null: none) passed first.
   * The blocking-call check was made by the caller's entry point.
   */
  boolean synchronize(BackendEvent e, Duration timeout) {
    EngineEvent event = own(e);
    if (tracer.enabled() && event.wasRecorded()) {
      tracer.publish(
          new TraceEvent.EventSynchronized(device(event), event.id(), System.nanoTime()));
    }
    Generation latest = event.toWaitFor();
    if (latest == null) {
      return true; // never recorded, or completed without failure
    }
    if (!latest.isDone() && !latest.await(timeout == null ? FOREVER : timeout)) {
      return false;
    }
    latest.throwIfFailed();
    return true;
  }

  CompletionStage<Void> completion(BackendEvent e) {
    Generation latest = own(e).latest();
    return latest == null ? CompletableFuture.completedStage(null) : latest.toStage();
  }

  void subscribe(BackendEvent e, ActorRef<EventSignal> subscriber) {
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
  void destroy(BackendEvent e) {
    if (e instanceof EngineEvent event) {
      if (!exported.isEmpty()) { // most events are never exported: no lookup for them
        exported.remove(event.id(), event);
      }
      if (tracer.enabled()) {
        tracer.publish(new TraceEvent.EventDeleted(device(event), event.id(), System.nanoTime()));
      }
    }
  }

  /** Nanoseconds between two completed records; throws the failure of either. */
  long elapsedNanos(BackendEvent start, BackendEvent end) {
    Generation first = own(start).latest();
    Generation second = own(end).latest();
    first.throwIfFailed();
    second.throwIfFailed();
    return second.completedAtNanos() - first.completedAtNanos();
  }

  EventHandle export(BackendEvent e) {
    EngineEvent event = own(e);
    exported.put(event.id(), event);
    return new EventHandle(engine.type(), event.deviceIndex(), event.id(), node);
  }

  BackendEvent open(long eventId) {
    EngineEvent event = exported.get(eventId);
    if (event == null) {
      throw new IllegalArgumentException(
          "no live interprocess "
              + engine.type()
              + " event with id "
              + eventId
              + " in this accelerator");
    }
    return event;
  }

  private Device device(EngineEvent event) {
    return Device.of(engine.type(), event.deviceIndex());
  }

  private EngineEvent own(BackendEvent e) {
    if (e instanceof EngineEvent event) {
      return event;
    }
    throw new IllegalArgumentException(e + " is not an event of the " + engine.type() + " backend");
  }
}
