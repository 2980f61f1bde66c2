package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.DeviceControl;
import dev.openaccel.runtime.spi.EngineSpec;
import dev.openaccel.runtime.trace.TraceEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import jdk.jfr.FlightRecorder;
import org.apache.pekko.Done;
import org.apache.pekko.actor.CoordinatedShutdown;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The devices of one engine: per device its actor (on its own dispatcher of device threads), its
 * streams and its memory; device synchronize; and the engine's stop. When the actor system stops,
 * every stream rejects new work and settles its queued work with a failure. Internal.
 *
 * <p>Owns: the device table (fixed at construction), the pending device synchronizes and the reason
 * the engine stopped (set once).
 */
final class EngineDevices {
  private static final Logger LOG = LoggerFactory.getLogger(EngineDevices.class);
  private static final CompletionStage<Void> IDLE = CompletableFuture.completedStage(null);
  // One wake-up already runs a stream's whole batch; then the thread moves on to the next actor.
  private static final int MESSAGES_PER_TURN = 1;

  /** One device: its actor, stream registry and allocator (null without device memory). */
  private record Unit(
      Device device,
      ActorRef<DeviceActor.Command> actor,
      StreamRegistry streams,
      CachingAllocator allocator,
      IdleMeter idle) {}

  private final ActorEngine engine;
  private final Duration syncTimeout;
  private final Unit[] units;
  private final Set<CompletableFuture<Void>> pendingSyncs = ConcurrentHashMap.newKeySet();
  private volatile String stopped;
  private volatile boolean shuttingDown; // set once, as the actor system's shutdown begins
  private final Duration interruptAfter;
  private final Runnable reportIdle = this::reportIdle;
  private final Object replayOrder = new Object();
  private final AtomicLong graphIds = new AtomicLong();

  // Each registry reads the stop reason of this table while it is being built.
  @SuppressWarnings("this-escape")
  EngineDevices(ActorEngine engine, ActorSystem<?> system, Duration syncTimeout) {
    this.engine = engine;
    this.syncTimeout = syncTimeout;
    this.interruptAfter = interruptAfter(system);
    EngineSpec spec = engine.spec();
    this.units = new Unit[spec.deviceCount()];
    for (int i = 0; i < units.length; i++) {
      Device device = Device.of(spec.type(), i);
      String name = "openaccel-" + spec.type().name() + "-device-" + i;
      IdleMeter meter = new IdleMeter(device, spec.waitStrategy(i));
      DispatcherSelector dispatcher =
          DeviceDispatchers.register(
              system,
              name,
              spec.computeUnits(),
              MESSAGES_PER_TURN,
              IdleWait.of(meter.strategy(), meter));
      ActorRef<DeviceActor.Command> actor =
          system.systemActorOf(DeviceActor.create(), name, dispatcher);
      BlockSource blocks =
          spec.memory() != null
              ? BlockSource.regions(spec.memory(), device)
              : spec.memoryPerDevice() > 0
                  ? BlockSource.simulated(device, spec.memoryPerDevice())
                  : null;
      CachingAllocator allocator =
          blocks == null ? null : new CachingAllocator(device, blocks, engine.tracer());
      units[i] =
          new Unit(
              device, actor, new StreamRegistry(engine, this, device, actor), allocator, meter);
    }
    FlightRecorder.addPeriodicEvent(IdleWaitRecord.class, reportIdle);
    String reason = "the actor system '" + system.name() + "' terminated";
    AfterTermination.get(system)
        .run("the " + spec.type() + " engine's streams and memory", () -> stop(reason));
    // Streams still waiting for their actor would otherwise wait for the whole system to stop.
    CoordinatedShutdown.get(system)
        .addTask(
            CoordinatedShutdown.PhaseBeforeActorSystemTerminate(),
            "openaccel-" + spec.type().name() + "-unstarted-streams",
            () -> {
              shuttingDown = true; // before any kernel can be interrupted (see Kernels)
              String stopping = "the actor system '" + system.name() + "' is shutting down";
              for (Unit unit : units) {
                unit.streams().all().forEach(h -> h.end().stopUnowned(stopping));
              }
              KernelInterrupter.start(system, interruptAfter, this::allStreams);
              return CompletableFuture.completedFuture(Done.getInstance());
            });
  }

  /**
   * {@code openaccel.interrupt-kernels-after}, read at start so that a bad value fails there.
   *
   * @throws IllegalArgumentException if it is under 10 ms (see {@link Kernels})
   */
  private static Duration interruptAfter(ActorSystem<?> system) {
    String key = "openaccel.interrupt-kernels-after";
    Duration grace = system.settings().config().getDuration(key);
    if (grace.toMillis() < 10) {
      throw new IllegalArgumentException(key + " must be at least 10 ms, got " + grace);
    }
    return grace;
  }

  private List<StreamQueue> allStreams() {
    List<StreamQueue> all = new ArrayList<>();
    for (Unit unit : units) {
      all.addAll(unit.streams().all());
    }
    return all;
  }

  StreamRegistry registry(int device) {
    return units[device].streams();
  }

  /**
   * {@code stream} was closed and has run all its work: it leaves its device's registry. A failure
   * no synchronize reported is reported here, once, at WARN: nothing else can report it now.
   */
  void closed(StreamQueue stream, DeviceExecutionException unreported) {
    Unit unit = units[stream.stream().deviceIndex()];
    unit.streams().remove(stream);
    if (unit.allocator() != null) {
      unit.allocator().streamClosed(stream);
    }
    if (unreported != null) {
      LOG.warn("{} was closed with a failure no synchronize reported", stream, unreported);
    }
  }

  Stream defaultStream(int device) {
    return units[device].streams().defaultStream().stream();
  }

  /**
   * The monitor every graph replay of this engine enqueues under, so that on every stream the
   * replays' items come in one order and no two replays wait for each other in a cycle.
   */
  Object replayOrder() {
    return replayOrder;
  }

  /** A new graph's id, from 1. */
  long nextGraphId() {
    return graphIds.incrementAndGet();
  }

  /**
   * Allocates on {@code stream}'s device, from its caching allocator, if the control lets it and
   * the stream is not being captured.
   */
  DeviceBuffer allocate(StreamQueue stream, long bytes) {
    stream.checkNotCapturing("allocating on " + stream.stream());
    DeviceControl control = engine.control().get();
    if (control != null && bytes > 0) { // a bad size fails as it would without one
      control.beforeAllocation(stream.stream().device(), bytes);
    }
    return units[stream.stream().deviceIndex()].allocator().allocate(stream, bytes);
  }

  /** The caching allocator of {@code device}, or null if the engine has no device memory. */
  CachingAllocator allocator(int device) {
    return units[device].allocator();
  }

  /** Whether the actor system's shutdown has begun. */
  boolean shuttingDown() {
    return shuttingDown;
  }

  /** Why the engine stopped, or null while it runs. */
  String stoppedReason() {
    return stopped;
  }

  /** Completes when all streams of the device have run the work enqueued before this call. */
  CompletionStage<Void> synchronize(int device) {
    Unit unit = units[device];
    if (engine.tracer().enabled()) {
      engine.tracer().publish(new TraceEvent.DeviceSynchronized(unit.device(), System.nanoTime()));
    }
    List<StreamQueue> streams = unit.streams().all();
    streams.forEach(
        stream -> stream.checkNotCapturing("Accelerator.synchronize(" + unit.device() + ")"));
    if (streams.stream().allMatch(StreamQueue::isSettled)) {
      return IDLE;
    }
    List<DeviceSyncQuery.Member> members = new ArrayList<>();
    for (StreamQueue stream : streams) {
      // now: covers the work enqueued so far
      members.add(new DeviceSyncQuery.Member(stream.stream(), stream.syncStage()));
    }
    CompletableFuture<Void> done = new CompletableFuture<>();
    pendingSyncs.add(done);
    done.whenComplete((ok, error) -> pendingSyncs.remove(done));
    unit.actor().tell(new DeviceActor.Synchronize(members, syncTimeout, done));
    failIfStopped(done); // the device actor may be gone: its reply would never come
    return done;
  }

  private void reportIdle() {
    for (Unit unit : units) {
      unit.idle().report();
    }
  }

  private void stop(String reason) {
    stopped = reason;
    FlightRecorder.removePeriodicEvent(reportIdle);
    for (Unit unit : units) {
      for (StreamQueue stream : unit.streams().all()) {
        stream.end().stopUnowned(reason); // a stream its actor claimed stopped with the actor
      }
      if (unit.allocator() != null) {
        unit.allocator().stop(); // device memory goes back, that of open buffers too
      }
    }
    for (CompletableFuture<Void> pending : pendingSyncs) {
      failIfStopped(pending);
    }
  }

  private void failIfStopped(CompletableFuture<Void> sync) {
    String reason = stopped;
    if (reason != null) {
      sync.completeExceptionally(
          new DeviceExecutionException("device synchronize cannot complete: " + reason));
    }
  }
}
