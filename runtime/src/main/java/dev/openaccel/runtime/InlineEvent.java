package dev.openaccel.runtime;

import dev.openaccel.runtime.actor.EventSignal;
import dev.openaccel.runtime.internal.AcceleratorCore;
import dev.openaccel.runtime.spi.BackendEvent;
import dev.openaccel.runtime.spi.DeviceGuardImpl;
import dev.openaccel.runtime.spi.DeviceThread;
import dev.openaccel.runtime.spi.EventChecks;
import dev.openaccel.runtime.spi.EventFlag;
import dev.openaccel.runtime.spi.VirtualGuardImpl;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * The generic {@link Event}: c10's {@code InlineEvent} over the backend of its device type (the
 * impl its {@link VirtualGuardImpl} resolved: the router's type checks would repeat the event's
 * own, {@link EventChecks}). Backend event classes (such as {@code OpenRegEvent}) extend it, so
 * events of any class mix freely with each other and with streams of their device type.
 *
 * <p>Owns: the backend event handle, set once by the first record with a compare-and-set (the
 * event's device is the handle's), and whether the event is closed. This class is thread-safe and
 * takes no lock.
 *
 * <p>An event is 24 bytes with compressed references, because applications keep many alive: its
 * options are one byte of bits.
 */
public class InlineEvent implements Event {
  private static final CompletionStage<Void> NEVER_RECORDED =
      CompletableFuture.completedStage(null);
  private static final VarHandle CLOSED;
  private static final VarHandle EVENT;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      CLOSED = lookup.findVarHandle(InlineEvent.class, "closed", boolean.class);
      EVENT = lookup.findVarHandle(InlineEvent.class, "event", BackendEvent.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final DeviceGuardImpl backend; // the router's impl: see the class comment
  private final byte options;
  private volatile BackendEvent event;
  private volatile boolean closed; // set once, by close() with a compare-and-set

  /**
   * An event of {@code accelerator}'s backend for {@code type}; for backend event classes.
   *
   * @throws IllegalArgumentException if {@code options} asks for both interprocess and timing, or
   *     containing "no backend for device type"
   * @throws UnsupportedOperationException naming the backend and the option it does not support
   */
  protected InlineEvent(Accelerator accelerator, DeviceType type, EventOptions options) {
    this(AcceleratorCore.get(accelerator.system()).router(type), options);
  }

  private InlineEvent(VirtualGuardImpl backend, EventOptions options) {
    this.backend = Objects.requireNonNull(backend, "backend").impl();
    EventChecks.checkOptions(backend, Objects.requireNonNull(options, "options"));
    this.options = options.bits();
  }

  /** An opened interprocess event that follows {@code shared}'s records. */
  private InlineEvent(VirtualGuardImpl backend, BackendEvent shared) {
    this(backend, EventOptions.defaults().withInterprocess(true));
    this.event = shared;
  }

  /**
   * A new event routed through {@code backend}; see {@link #InlineEvent(Accelerator, DeviceType,
   * EventOptions)} for the exceptions.
   */
  public static InlineEvent create(VirtualGuardImpl backend, EventOptions options) {
    return new InlineEvent(backend, options);
  }

  /** The event behind {@code handle}, opened in {@code backend}. */
  static InlineEvent open(VirtualGuardImpl backend, EventHandle handle) {
    return new InlineEvent(backend, backend.openEvent(handle.eventId()));
  }

  @Override
  public DeviceType deviceType() {
    return backend.type();
  }

  @Override
  public Optional<Device> device() {
    int index = deviceIndex();
    return index < 0 ? Optional.empty() : Optional.of(Device.of(deviceType(), index));
  }

  @Override
  public int deviceIndex() {
    BackendEvent created = event;
    return created == null ? -1 : created.deviceIndex();
  }

  @Override
  public long id() {
    BackendEvent created = event;
    return created == null ? 0 : created.id();
  }

  @Override
  public EventOptions options() {
    return EventOptions.ofBits(options);
  }

  @Override
  public boolean isCreated() {
    return event != null && !closed;
  }

  @Override
  public boolean wasRecorded() {
    return event != null;
  }

  @Override
  public void record() {
    record(backend.getStream(backend.getDevice()));
  }

  /**
   * Records this event on {@code stream}. A record and its place in the stream are one step for
   * every concurrent caller: a {@link #block} that sees this record waits for exactly it, and a
   * block that runs before it keeps waiting for the previous one. Thread-safe: records after the
   * first are ordered by the backend event itself.
   */
  @Override
  public void record(Stream stream) {
    Objects.requireNonNull(stream, "stream");
    checkOpen("record");
    BackendEvent created = event;
    if (created == null) {
      if (recordFirst(stream)) {
        return;
      }
      created = event;
    }
    EventChecks.checkRecordable(deviceType(), created.deviceIndex(), stream);
    backend.record(created, stream, created.deviceIndex(), flag());
  }

  @Override
  public void recordOnce(Stream stream) {
    Objects.requireNonNull(stream, "stream");
    checkOpen("recordOnce");
    if (event == null) {
      recordFirst(stream);
    }
  }

  /**
   * Creates the backend event with a record on {@code stream}; false if another thread's first
   * record got there before this one, whose backend event, seen by no one, is then destroyed.
   */
  private boolean recordFirst(Stream stream) {
    EventChecks.checkRecordable(deviceType(), -1, stream);
    BackendEvent created = backend.record(null, stream, -1, flag());
    if (EVENT.compareAndSet(this, null, created)) {
      return true;
    }
    VirtualGuardImpl.destroyQuietly(backend, created, created.deviceIndex()); // never throws
    return false;
  }

  // The flag follows from the options; not kept in a field, which would cost every event 8 bytes.
  private EventFlag flag() {
    return (options & EventOptions.TIMING_BIT) != 0
        ? EventFlag.BACKEND_DEFAULT
        : EventFlag.PYTORCH_DEFAULT;
  }

  /**
   * Makes work enqueued on {@code stream} after this call wait for the record that is current now;
   * re-recording later never changes what it waits for. Safe to call concurrently with {@link
   * #record}: it never waits for a record that is enqueued after it.
   */
  @Override
  public void block(Stream stream) {
    EventChecks.checkBlockable(this, stream);
    checkOpen("block");
    BackendEvent created = event;
    if (created != null) {
      backend.block(created, stream);
    }
  }

  @Override
  public void block() {
    block(backend.getStream(backend.getDevice()));
  }

  @Override
  public boolean query() {
    checkOpen("query");
    BackendEvent created = event;
    return created == null || backend.queryEvent(created);
  }

  @Override
  public void synchronize() {
    // The blocking-call check for events lives here, the entry point, so it runs once per call.
    DeviceThread.checkMayBlock("Event.synchronize()", "Event.completion()");
    checkOpen("synchronize");
    HostWait.synchronize(backend, event, blocking());
  }

  @Override
  public boolean synchronize(Duration timeout) {
    Objects.requireNonNull(timeout, "timeout");
    DeviceThread.checkMayBlock("Event.synchronize(timeout)", "Event.completion()");
    checkOpen("synchronize");
    return HostWait.synchronize(backend, event, blocking(), timeout);
  }

  @Override
  public CompletionStage<Void> completion() {
    checkOpen("completion");
    BackendEvent created = event;
    return created == null ? NEVER_RECORDED : backend.eventCompletion(created);
  }

  @Override
  public double elapsedTime(Event end) {
    checkOpen("elapsedTime");
    EventChecks.checkTimingComparable(this, end);
    if (!(end instanceof InlineEvent other)) {
      throw new IllegalArgumentException(
          "elapsedTime needs an event of this runtime, got " + end.getClass().getName());
    }
    other.checkOpen("elapsedTime");
    EventChecks.checkMeasurable(this, other);
    BackendEvent start = event;
    return backend.elapsedTime(start, other.event, start.deviceIndex());
  }

  @Override
  public Duration elapsed(Event end) {
    return EventChecks.toDuration(elapsedTime(end));
  }

  @Override
  public EventHandle handle() {
    EventChecks.checkInterprocess(this);
    checkOpen("handle");
    EventChecks.checkExportable(this);
    return backend.exportEvent(event);
  }

  @Override
  public void subscribe(ActorRef<EventSignal> subscriber) {
    Objects.requireNonNull(subscriber, "subscriber must not be null");
    checkOpen("subscribe");
    BackendEvent created = event;
    if (created == null) {
      subscriber.tell(new EventSignal.Completed(0, 0, System.nanoTime()));
    } else {
      backend.subscribe(created, subscriber);
    }
  }

  @Override
  public void close() {
    if (closed || !CLOSED.compareAndSet(this, false, true)) {
      return;
    }
    BackendEvent created = event;
    if (created != null) {
      VirtualGuardImpl.destroyQuietly(backend, created, created.deviceIndex()); // never throws
    }
  }

  private boolean blocking() {
    return (options & EventOptions.BLOCKING_BIT) != 0;
  }

  private void checkOpen(String operation) {
    if (closed) {
      throw new IllegalStateException(
          "cannot call " + operation + "() on a closed event (" + this + ")");
    }
  }

  @Override
  public String toString() {
    return "%s(device_type=%s, device_index=%d, event_id=%d, options=%s)"
        .formatted(getClass().getSimpleName(), deviceType(), deviceIndex(), id(), options());
  }
}
