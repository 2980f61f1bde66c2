package dev.openaccel.runtime.spi;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.DeviceContext;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.EventHandle;
import dev.openaccel.runtime.MemoryStats;
import dev.openaccel.runtime.PriorityRange;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.actor.EventSignal;
import dev.openaccel.runtime.internal.AcceleratorThread;
import dev.openaccel.runtime.internal.DeviceEngine;
import dev.openaccel.runtime.internal.EventCore;
import dev.openaccel.runtime.internal.Generation;
import dev.openaccel.runtime.trace.TraceEvent;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * A {@link DeviceGuardImpl} built on OpenAccel's actor engine: device actors, stream actors with
 * ordered queues, and events as latched generations. A backend describes its hardware with an
 * {@link EngineSpec}, declares its {@link #capabilities()}, and inherits the rest. Undeclared
 * capabilities throw {@link UnsupportedOperationException}.
 *
 * <p>This class is thread-safe.
 */
public abstract class EngineGuardImpl implements DeviceGuardImpl {
  private static final Duration FOREVER = Duration.ofNanos(Long.MAX_VALUE);

  private final DeviceType type;
  private final CurrentContext current;
  private final DeviceEngine engine;
  private final String node;

  // The engine keeps a reference to its backend; it calls back only after construction.
  @SuppressWarnings("this-escape")
  protected EngineGuardImpl(DeviceType type, EngineSpec spec, BackendContext context) {
    this.type = Objects.requireNonNull(type, "type");
    this.current = context.currentContext();
    this.engine = new DeviceEngine(this, type, spec, context.system(), context.tracer());
    this.node = context.system().address().toString();
  }

  @Override
  public final DeviceType type() {
    return type;
  }

  @Override
  public int deviceCount() {
    return engine.deviceCount();
  }

  @Override
  public PriorityRange priorityRange() {
    return engine.spec().priorityRange();
  }

  // ---- current device and stream: the caller's DeviceContext ----

  @Override
  public Device getDevice() {
    return Device.of(type, current.get().deviceIndex(type));
  }

  @Override
  public void setDevice(Device d) {
    current.set(current.get().withDevice(Device.of(type, checkIndex(d))));
  }

  @Override
  public Device exchangeDevice(Device d) {
    Device previous = getDevice();
    setDevice(d);
    return previous;
  }

  @Override
  public void uncheckedSetDevice(Device d) {
    if (d != null && d.type().equals(type) && d.index() >= 0 && d.index() < deviceCount()) {
      current.set(current.get().withDevice(d));
    }
  }

  @Override
  public Stream getStream(Device d) {
    int index = checkIndex(d);
    DeviceContext context = current.get();
    return context.stream(Device.of(type, index)).orElseGet(() -> engine.defaultStream(index));
  }

  @Override
  public Stream exchangeStream(Stream s) {
    engine.coreOf(s);
    Stream previous = getStream(s.device());
    current.set(current.get().withStream(s));
    return previous;
  }

  // ---- streams ----

  @Override
  public Stream getDefaultStream(Device d) {
    return engine.defaultStream(checkIndex(d));
  }

  @Override
  public Stream getNewStream(Device d, int priority) {
    return engine.newStream(checkIndex(d), priority);
  }

  @Override
  public Stream getStreamFromGlobalPool(Device d, boolean highPriority) {
    require(Capability.STREAM_POOL, "stream pools");
    return engine.streamFromPool(checkIndex(d), highPriority);
  }

  @Override
  public Stream getStream(Device d, long streamId) {
    return engine.stream(checkIndex(d), streamId);
  }

  @Override
  public boolean queryStream(Stream s) {
    return engine.coreOf(s).query();
  }

  @Override
  public void synchronizeStream(Stream s) {
    engine.coreOf(s).synchronize();
  }

  @Override
  public void synchronizeDevice(int deviceIndex) {
    AcceleratorThread.checkMayBlock(
        "Accelerator.synchronize()", "Accelerator.synchronizeAsync(device)");
    int index = checkIndex(Device.of(type, deviceIndex));
    try {
      engine.synchronizeDeviceAsync(index).toCompletableFuture().get();
    } catch (ExecutionException e) {
      throw DeviceEngine.rethrown(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while synchronizing " + type + ":" + index, e);
    }
  }

  @Override
  public CompletionStage<Void> synchronizeDeviceAsync(int deviceIndex) {
    return engine.synchronizeDeviceAsync(checkIndex(Device.of(type, deviceIndex)));
  }

  // ---- memory ----

  @Override
  public DeviceBuffer allocate(Stream stream, long bytes) {
    require(Capability.DEVICE_MEMORY, "device memory");
    return engine.allocate(engine.coreOf(stream), bytes);
  }

  @Override
  public MemoryStats memoryStats(Device d) {
    require(Capability.DEVICE_MEMORY, "device memory");
    return engine.memoryStats(checkIndex(d));
  }

  // ---- events ----

  @Override
  public BackendEvent record(BackendEvent eventOrNull, Stream s, int deviceIndex, EventFlag flag) {
    require(Capability.EVENTS, "events");
    if (flag == null || flag == EventFlag.INVALID) {
      throw new IllegalArgumentException("invalid event flag " + flag + " for " + type);
    }
    if (flag == EventFlag.BACKEND_DEFAULT) {
      require(Capability.TIMING, "timing events (enable_timing)");
    }
    var stream = engine.coreOf(s);
    EventCore event = eventOrNull == null ? null : core(eventOrNull);
    if (event == null) {
      event = engine.newEvent(s.deviceIndex(), flag == EventFlag.BACKEND_DEFAULT);
    } else if (event.deviceIndex() != s.deviceIndex()) {
      throw new IllegalArgumentException(
          "Event device index "
              + event.deviceIndex()
              + " does not match recording stream's device index "
              + s.deviceIndex());
    }
    engine.enqueueRecord(stream, event);
    return event;
  }

  @Override
  public void block(BackendEvent e, Stream s) {
    EventCore event = core(e);
    var stream = engine.coreOf(s);
    if (event.deviceIndex() != s.deviceIndex()) {
      require(Capability.CROSS_DEVICE_WAIT, "waiting on an event of another device");
    }
    engine.enqueueWait(stream, event);
  }

  @Override
  public void blockOn(Stream s, CompletionStage<?> signal) {
    engine.enqueueWait(engine.coreOf(s), signal);
  }

  @Override
  public boolean queryEvent(BackendEvent e) {
    Generation latest = core(e).latest();
    return latest == null || latest.isDone();
  }

  @Override
  public void synchronizeEvent(BackendEvent e) {
    synchronizeEvent(e, FOREVER);
  }

  @Override
  public boolean synchronizeEvent(BackendEvent e, Duration timeout) {
    AcceleratorThread.checkMayBlock("Event.synchronize()", "Event.completion()");
    EventCore event = core(e);
    Generation latest = event.latest();
    if (latest == null) {
      return true;
    }
    if (engine.tracer().enabled()) {
      engine
          .tracer()
          .publish(
              new TraceEvent.EventSynchronized(
                  Device.of(type, event.deviceIndex()), event.id(), System.nanoTime()));
    }
    if (!latest.isDone() && !latest.await(timeout)) {
      return false;
    }
    latest.throwIfFailed();
    return true;
  }

  @Override
  public CompletionStage<Void> eventCompletion(BackendEvent e) {
    Generation latest = core(e).latest();
    return latest == null ? CompletableFuture.completedStage(null) : latest.toStage();
  }

  @Override
  public void subscribe(BackendEvent e, ActorRef<EventSignal> subscriber) {
    EventCore event = core(e);
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
                        event.id(), done.number(), DeviceEngine.reported(done.failure()))));
  }

  @Override
  public void destroyEvent(BackendEvent e, int deviceIndex) {
    if (e instanceof EventCore event) {
      engine.destroy(event);
    }
  }

  @Override
  public double elapsedTime(BackendEvent start, BackendEvent end, int deviceIndex) {
    require(Capability.TIMING, "elapsed time");
    long nanos = elapsedNanos(core(start), core(end));
    return nanos / 1_000_000.0;
  }

  @Override
  public EventHandle exportEvent(BackendEvent e) {
    require(Capability.INTERPROCESS_EVENTS, "interprocess events");
    EventCore event = core(e);
    engine.export(event);
    return new EventHandle(type, event.deviceIndex(), event.id(), node);
  }

  @Override
  public BackendEvent openEvent(long eventId) {
    require(Capability.INTERPROCESS_EVENTS, "interprocess events");
    EventCore event = engine.exportedEvent(eventId);
    if (event == null) {
      throw new IllegalArgumentException(
          "no live interprocess " + type + " event with id " + eventId + " in this accelerator");
    }
    return event;
  }

  // ---- helpers ----

  private static long elapsedNanos(EventCore start, EventCore end) {
    if (!start.timing() || !end.timing()) {
      throw new IllegalArgumentException(
          "Both events must be created with enable_timing to calculate elapsed time");
    }
    Generation first = start.latest();
    Generation second = end.latest();
    if (first == null || second == null) {
      throw new IllegalStateException(
          "Both events must be recorded before calculating elapsed time");
    }
    if (!first.isDone() || !second.isDone()) {
      throw new IllegalStateException(
          "Both events must be completed before calculating elapsed time");
    }
    first.throwIfFailed();
    second.throwIfFailed();
    return second.completedAtNanos() - first.completedAtNanos();
  }

  /** The device index {@code d} names, the current one if it has none; validated. */
  protected final int checkIndex(Device d) {
    Objects.requireNonNull(d, "device");
    if (!d.type().equals(type)) {
      throw new IllegalArgumentException("device " + d + " is not of device type " + type);
    }
    int index = d.hasIndex() ? d.index() : current.get().deviceIndex(type);
    if (index >= deviceCount()) {
      throw new IllegalArgumentException(
          "device index is out of range: "
              + d
              + " (device type "
              + type
              + " has "
              + deviceCount()
              + " devices, valid indices 0.."
              + (deviceCount() - 1)
              + ")");
    }
    return index;
  }

  /** Throws the backend's "doesn't support" error unless {@code capability} is declared. */
  protected final void require(Capability capability, String what) {
    if (!capabilities().contains(capability)) {
      throw unsupported(what);
    }
  }

  private EventCore core(BackendEvent e) {
    if (e instanceof EventCore event) {
      return event;
    }
    throw new IllegalArgumentException(e + " is not an event of the " + type + " backend");
  }

  @Override
  public abstract Set<Capability> capabilities();
}
