package dev.openaccel.runtime.internal;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.MemoryStats;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.DeviceGuardImpl;
import dev.openaccel.runtime.spi.EngineSpec;
import dev.openaccel.runtime.trace.TraceEvent;
import dev.openaccel.runtime.trace.Tracer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.pekko.Done;
import org.apache.pekko.actor.CoordinatedShutdown;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.DispatcherSelector;

/**
 * The actor engine of one backend in one actor system: a {@link DeviceActor} per device on its own
 * dispatcher, the devices' streams, and event ids. Internal; backends reach it through {@code
 * EngineGuardImpl}.
 *
 * <p>Owns: the device table (fixed at construction), event ids, and the table of exported
 * (interprocess) events. When the actor system terminates, every stream fails its queued work and
 * rejects new work.
 */
public final class DeviceEngine {
  private static final CompletionStage<Void> IDLE = CompletableFuture.completedStage(null);
  // One wake-up already runs a stream's whole batch; then the thread moves on to the next actor.
  private static final int MESSAGES_PER_TURN = 1;

  private final DeviceGuardImpl guardImpl;
  private final Tracer tracer;
  private final DeviceType type;
  private final EngineSpec spec;
  private final DeviceStreams[] devices;
  private final CachingAllocator[] allocators;
  private final AtomicLong eventIds = new AtomicLong();
  private final Map<Long, EventCore> exported = new ConcurrentHashMap<>();
  private final Set<CompletableFuture<Void>> pendingSyncs = ConcurrentHashMap.newKeySet();
  private volatile String terminated;

  public DeviceEngine(
      DeviceGuardImpl guardImpl,
      DeviceType type,
      EngineSpec spec,
      ActorSystem<?> system,
      Tracer tracer) {
    this.guardImpl = guardImpl;
    this.tracer = tracer;
    this.type = type;
    this.spec = spec;
    this.devices = new DeviceStreams[spec.deviceCount()];
    this.allocators = new CachingAllocator[spec.memoryPerDevice() > 0 ? spec.deviceCount() : 0];
    for (int i = 0; i < devices.length; i++) {
      String name = "openaccel-" + type.name() + "-device-" + i;
      DispatcherSelector dispatcher =
          DeviceDispatchers.register(system, name, spec.computeUnits(), MESSAGES_PER_TURN);
      ActorRef<DeviceActor.Command> actor =
          system.systemActorOf(DeviceActor.create(), name, dispatcher);
      devices[i] = new DeviceStreams(this, Device.of(type, i), actor);
      if (allocators.length > 0) {
        allocators[i] = new CachingAllocator(Device.of(type, i), spec.memoryPerDevice(), tracer);
      }
    }
    String reason = "the actor system '" + system.name() + "' terminated";
    system.getWhenTerminated().thenRun(() -> terminate(reason));
    // Streams still waiting for their actor would otherwise wait for the whole system to stop.
    CoordinatedShutdown.get(system)
        .addTask(
            CoordinatedShutdown.PhaseBeforeActorSystemTerminate(),
            "openaccel-" + type.name() + "-unstarted-streams",
            () -> {
              String stopping = "the actor system '" + system.name() + "' is shutting down";
              for (DeviceStreams device : devices) {
                device.all().forEach(core -> core.terminateIfUnattached(stopping));
              }
              return CompletableFuture.completedFuture(Done.getInstance());
            });
  }

  public EngineSpec spec() {
    return spec;
  }

  public DeviceGuardImpl guardImpl() {
    return guardImpl;
  }

  public Tracer tracer() {
    return tracer;
  }

  public int deviceCount() {
    return devices.length;
  }

  public Stream defaultStream(int device) {
    return devices[device].defaultStream().stream();
  }

  public Stream newStream(int device, int priority) {
    return devices[device].newStream(priority).stream();
  }

  public Stream streamFromPool(int device, boolean highPriority) {
    return devices[device].fromPool(highPriority).stream();
  }

  /**
   * The existing stream {@code id} of {@code device}.
   *
   * @throws IllegalArgumentException if there is none
   */
  public Stream stream(int device, long id) {
    StreamCore core = devices[device].lookup(id);
    if (core == null) {
      throw new IllegalArgumentException(
          "unknown stream id " + id + " on " + Device.of(type, device) + ": no such stream exists");
    }
    return core.stream();
  }

  /**
   * The engine side of {@code stream}.
   *
   * @throws IllegalArgumentException if the stream belongs to another backend or accelerator
   */
  public StreamCore coreOf(Stream stream) {
    if (stream.ops() instanceof StreamCore core && core.engine() == this) {
      return core;
    }
    throw new IllegalArgumentException(
        stream + " does not belong to this accelerator's " + type.name() + " backend");
  }

  public EventCore newEvent(int device, boolean timing) {
    EventCore event = new EventCore(eventIds.incrementAndGet(), device, timing);
    if (tracer.enabled()) {
      tracer.publish(new TraceEvent.EventCreated(deviceOf(device), event.id(), System.nanoTime()));
    }
    return event;
  }

  /** Releases {@code event}: it is no longer exported. Never throws. */
  public void destroy(EventCore event) {
    exported.remove(event.id(), event);
    if (tracer.enabled()) {
      tracer.publish(
          new TraceEvent.EventDeleted(
              deviceOf(event.deviceIndex()), event.id(), System.nanoTime()));
    }
  }

  private Device deviceOf(int index) {
    return devices[index].device();
  }

  /** Allocates device memory for use on {@code stream}. */
  public DeviceBuffer allocate(StreamCore stream, long bytes) {
    return allocators[stream.stream().deviceIndex()].allocate(stream, bytes);
  }

  public MemoryStats memoryStats(int device) {
    return allocators[device].stats();
  }

  /**
   * The engine side of {@code buffer}.
   *
   * @throws IllegalArgumentException if it was not allocated by this engine
   */
  Buffer bufferOf(DeviceBuffer buffer) {
    if (buffer instanceof Buffer owned && owned.engine() == this) {
      return owned;
    }
    throw new IllegalArgumentException(
        buffer + " was not allocated by this accelerator's " + type.name() + " backend");
  }

  /** Starts a new record of {@code event} and enqueues it on {@code stream}. */
  public void enqueueRecord(StreamCore stream, EventCore event) {
    Generation generation = event.newGeneration();
    try {
      stream.enqueue(new WorkItem.Record(generation));
    } catch (IllegalStateException stopped) {
      generation.complete(System.nanoTime(), asExecutionFailure(stopped));
      throw stopped;
    }
    if (tracer.enabled()) {
      Stream s = stream.stream();
      tracer.publish(
          new TraceEvent.EventRecorded(
              s.device(), event.id(), s.id(), generation.number(), System.nanoTime()));
    }
  }

  /** Makes {@code stream} wait for {@code event}'s latest record, if it has one. */
  public void enqueueWait(StreamCore stream, EventCore event) {
    Generation latest = event.latest();
    if (latest == null) {
      return;
    }
    stream.enqueue(new WorkItem.Wait(latest));
    if (tracer.enabled()) {
      Stream s = stream.stream();
      tracer.publish(
          new TraceEvent.EventWaited(
              s.device(), event.id(), s.id(), latest.number(), System.nanoTime()));
    }
  }

  /** Makes {@code stream} wait until {@code signal} completes. */
  public void enqueueWait(StreamCore stream, CompletionStage<?> signal) {
    Generation external = new Generation(null, 0);
    stream.enqueue(new WorkItem.Wait(external));
    signal.whenComplete(
        (ok, error) ->
            external.complete(System.nanoTime(), error == null ? null : asExecutionFailure(error)));
  }

  /** Makes {@code event} findable by {@link #exportedEvent}. */
  public void export(EventCore event) {
    exported.put(event.id(), event);
  }

  /** The exported event with this id, or null. */
  public EventCore exportedEvent(long id) {
    return exported.get(id);
  }

  /** True when every stream of the device is idle with nothing to report. */
  public boolean deviceSettled(int device) {
    for (StreamCore core : devices[device].all()) {
      if (!core.isSettled()) {
        return false;
      }
    }
    return true;
  }

  /** Completes when all streams of the device have run the work enqueued before this call. */
  public CompletionStage<Void> synchronizeDeviceAsync(int device) {
    if (tracer.enabled()) {
      tracer.publish(new TraceEvent.DeviceSynchronized(deviceOf(device), System.nanoTime()));
    }
    if (deviceSettled(device)) {
      return IDLE;
    }
    List<CompletableFuture<Void>> markers = new ArrayList<>();
    for (StreamCore stream : devices[device].all()) {
      try {
        // Now, so the sync covers exactly the work enqueued so far.
        markers.add(stream.syncMarker());
      } catch (IllegalStateException stopped) {
        markers.add(CompletableFuture.failedFuture(asExecutionFailure(stopped)));
      }
    }
    CompletableFuture<Void> done = new CompletableFuture<>();
    pendingSyncs.add(done);
    done.whenComplete((ok, error) -> pendingSyncs.remove(done));
    devices[device].actor().tell(new DeviceActor.Synchronize(markers, done));
    failIfTerminated(done); // the device actor may be gone: its reply would never come
    return done;
  }

  /** Why the engine stopped, or null while it runs. */
  String terminatedReason() {
    return terminated;
  }

  private void terminate(String reason) {
    terminated = reason;
    for (DeviceStreams device : devices) {
      for (StreamCore core : device.all()) {
        core.terminate(reason);
      }
    }
    for (CompletableFuture<Void> pending : pendingSyncs) {
      failIfTerminated(pending);
    }
  }

  private void failIfTerminated(CompletableFuture<Void> sync) {
    String reason = terminated;
    if (reason != null) {
      sync.completeExceptionally(
          new DeviceExecutionException("device synchronize cannot complete: " + reason));
    }
  }

  /**
   * A copy of {@code failure} to throw on the caller's thread: same message, cause and suppressed.
   */
  public static DeviceExecutionException reported(DeviceExecutionException failure) {
    DeviceExecutionException copy =
        new DeviceExecutionException(failure.getMessage(), failure.getCause());
    for (Throwable suppressed : failure.getSuppressed()) {
      copy.addSuppressed(suppressed);
    }
    return copy;
  }

  /** The exception to throw for a failed wait on device work. */
  public static RuntimeException rethrown(Throwable cause) {
    if (cause instanceof DeviceExecutionException failure) {
      return reported(failure);
    }
    if (cause instanceof RuntimeException runtime) {
      return runtime;
    }
    return new DeviceExecutionException(String.valueOf(cause), cause);
  }

  /** {@code cause} as a device failure, for aggregation. */
  static DeviceExecutionException asExecutionFailure(Throwable cause) {
    return cause instanceof DeviceExecutionException failure
        ? failure
        : new DeviceExecutionException(String.valueOf(cause), cause);
  }
}
