package dev.openaccel.runtime;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.openaccel.runtime.internal.AcceleratorThread;
import dev.openaccel.runtime.internal.BackendRegistry;
import dev.openaccel.runtime.internal.ContextSlots;
import dev.openaccel.runtime.spi.BackendContext;
import dev.openaccel.runtime.spi.CurrentContext;
import dev.openaccel.runtime.spi.RemoteEvents;
import dev.openaccel.runtime.spi.VirtualGuardImpl;
import dev.openaccel.runtime.trace.TraceBus;
import dev.openaccel.runtime.trace.TraceEvent;
import dev.openaccel.runtime.trace.Tracer;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Extension;
import org.apache.pekko.actor.typed.ExtensionId;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The entry point: devices, streams, events and the caller's device context of one actor system, as
 * {@code torch.accelerator}. One per {@link ActorSystem} (a Pekko extension); two systems in one
 * JVM have two independent accelerators. All methods are thread-safe; "current" always means the
 * caller's own context.
 */
public final class Accelerator implements Extension, AutoCloseable {
  private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);
  // Initialised before any actor system starts, so logging is set up on one thread, not raced by
  // several.
  private static final Logger log = LoggerFactory.getLogger(Accelerator.class);

  /**
   * The extension id; listed in {@code pekko.actor.typed.library-extensions} so every actor system
   * with OpenAccel on its class path starts its accelerator eagerly.
   */
  public static final class Id extends ExtensionId<Accelerator> {
    private static final Id INSTANCE = new Id();

    private Id() {}

    /** The singleton, for Pekko's extension loader. */
    public static Id getInstance() {
      return INSTANCE;
    }

    @Override
    public Accelerator createExtension(ActorSystem<?> system) {
      return new Accelerator(system);
    }
  }

  private static final Id ID = Id.INSTANCE;

  private final ActorSystem<?> system;
  private final ContextSlots slots = new ContextSlots();
  private final Tracer tracer;
  private final BackendRegistry backends;
  private final String defaultType;
  private volatile boolean ownsSystem;
  private volatile RemoteEvents remoteEvents;

  private Accelerator(ActorSystem<?> system) {
    this.system = system;
    Config config = system.settings().config();
    this.defaultType = config.getString("openaccel.default-device-type");
    this.tracer = new Tracer(system);
    this.backends = BackendRegistry.load(system.dynamicAccess().classLoader(), backendContext());
  }

  /** The accelerator of an existing actor system, created on first use. */
  public static Accelerator get(ActorSystem<?> system) {
    return ID.apply(system);
  }

  /** Starts an actor system of its own with the default configuration. */
  public static Accelerator start() {
    return start(ConfigFactory.load());
  }

  /**
   * Starts an actor system of its own, named by {@code openaccel.system-name}, configured by {@code
   * config}.
   */
  public static Accelerator start(Config config) {
    Config full = config.withFallback(ConfigFactory.load());
    ActorSystem<Void> system =
        ActorSystem.create(Behaviors.empty(), full.getString("openaccel.system-name"), full);
    Accelerator accelerator = get(system);
    accelerator.ownsSystem = true;
    log.debug("started {}", accelerator);
    return accelerator;
  }

  public ActorSystem<?> system() {
    return system;
  }

  /** Terminates the actor system if {@link #start()} created it, and waits for it; idempotent. */
  @Override
  public void close() {
    if (!ownsSystem) {
      return;
    }
    system.terminate();
    if (!(Thread.currentThread() instanceof AcceleratorThread)) {
      try {
        system
            .getWhenTerminated()
            .toCompletableFuture()
            .get(CLOSE_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      } catch (Exception e) {
        throw new IllegalStateException("actor system " + system.name() + " did not terminate", e);
      }
    }
  }

  // ---- backends and devices ----

  /** The device types whose backends were found and enabled. */
  public Set<DeviceType> deviceTypes() {
    return backends.types();
  }

  /**
   * The default device type: {@code openaccel.default-device-type}, else the only backend.
   *
   * @throws IllegalStateException if there is no backend, or several and no configured default
   */
  public DeviceType currentAccelerator() {
    if (!defaultType.isEmpty()) {
      return DeviceType.of(defaultType);
    }
    Set<DeviceType> types = backends.types();
    if (types.size() != 1) {
      throw new IllegalStateException(
          "cannot choose a default device type among "
              + types
              + ": put one backend on the class path or set openaccel.default-device-type");
    }
    return types.iterator().next();
  }

  /** Devices of {@link #currentAccelerator()}; never throws, 0 if there is none or it failed. */
  public int deviceCount() {
    try {
      return deviceCount(currentAccelerator());
    } catch (RuntimeException e) {
      return 0;
    }
  }

  public int deviceCount(DeviceType type) {
    return guardImpl(type).deviceCount();
  }

  public PriorityRange priorityRange(DeviceType type) {
    return guardImpl(type).priorityRange();
  }

  /**
   * The router to the backend of {@code type}; for backends and SPI users.
   *
   * @throws IllegalArgumentException containing "no backend for device type"
   */
  public VirtualGuardImpl guardImpl(DeviceType type) {
    return backends.get(Objects.requireNonNull(type, "type"));
  }

  // ---- the caller's device context ----

  public int currentDeviceIndex() {
    return slots.get().deviceIndex(currentAccelerator());
  }

  public Device currentDevice() {
    return currentDevice(currentAccelerator());
  }

  public Device currentDevice(DeviceType type) {
    return guardImpl(type).getDevice();
  }

  /**
   * Makes device {@code index} of {@link #currentAccelerator()} current; a negative index is a
   * no-op.
   *
   * @throws IllegalArgumentException containing "device index is out of range"
   */
  public void setDeviceIndex(int index) {
    if (index >= 0) {
      setDevice(Device.of(currentAccelerator(), index));
    }
  }

  /** Makes {@code device} current for its type; a device without index is a no-op. */
  public void setDevice(Device device) {
    if (device.hasIndex()) {
      guardImpl(device.type()).setDevice(device);
    }
  }

  public DeviceGuard deviceGuard(int index) {
    return deviceGuard(Device.of(currentAccelerator(), Math.max(index, -1)));
  }

  public DeviceGuard deviceGuard(Device device) {
    return new DeviceGuard(guardImpl(device.type()), new GuardOwner(slots), device);
  }

  public Stream currentStream() {
    return currentStream(currentDevice());
  }

  public Stream currentStream(Device device) {
    return guardImpl(device.type()).getStream(device);
  }

  public Stream defaultStream(Device device) {
    return guardImpl(device.type()).getDefaultStream(device);
  }

  /** Makes {@code stream} current on its device and that device current. */
  public void setStream(Stream stream) {
    VirtualGuardImpl impl = guardImpl(stream.deviceType());
    impl.exchangeStream(stream);
    impl.setDevice(stream.device());
  }

  public StreamGuard streamGuard(Stream stream) {
    return new StreamGuard(guardImpl(stream.deviceType()), new GuardOwner(slots), stream);
  }

  /**
   * @throws IllegalArgumentException containing "mix of device types"
   */
  public MultiStreamGuard multiStreamGuard(Collection<Stream> streams) {
    List<Stream> list = List.copyOf(streams);
    DeviceType type = MultiStreamGuard.commonType(list);
    return new MultiStreamGuard(type == null ? null : guardImpl(type), new GuardOwner(slots), list);
  }

  // ---- streams ----

  public Stream newStream() {
    return newStream(currentDevice());
  }

  public Stream newStream(Device device) {
    return newStream(device, 0);
  }

  public Stream newStream(Device device, int priority) {
    return guardImpl(device.type()).getNewStream(device, priority);
  }

  public Stream streamFromPool(Device device, boolean highPriority) {
    return guardImpl(device.type()).getStreamFromGlobalPool(device, highPriority);
  }

  /**
   * @throws IllegalArgumentException if {@code device} has no stream {@code streamId}
   */
  public Stream stream(Device device, long streamId) {
    return guardImpl(device.type()).getStream(device, streamId);
  }

  /** Blocks until all streams of the current device have completed their work. */
  public void synchronize() {
    synchronize(currentDevice());
  }

  public void synchronize(Device device) {
    guardImpl(device.type()).synchronizeDevice(device.index());
  }

  public CompletionStage<Void> synchronizeAsync(Device device) {
    return guardImpl(device.type()).synchronizeDeviceAsync(device.index());
  }

  // ---- memory ----

  /**
   * Allocates device memory for use on the caller's current stream of {@code device}.
   *
   * @throws IllegalArgumentException if {@code bytes <= 0}
   * @throws DeviceOutOfMemoryException naming the requested, free and capacity bytes
   */
  public DeviceBuffer allocate(Device device, long bytes) {
    VirtualGuardImpl impl = guardImpl(device.type());
    return impl.allocate(impl.getStream(device), bytes);
  }

  public MemoryStats memoryStats(Device device) {
    return guardImpl(device.type()).memoryStats(device);
  }

  // ---- events ----

  public Event newEvent() {
    return newEvent(EventOptions.defaults());
  }

  public Event newEvent(EventOptions options) {
    return newEvent(currentAccelerator(), options);
  }

  public Event newEvent(DeviceType type, EventOptions options) {
    return InlineEvent.create(guardImpl(type).impl(), options);
  }

  /**
   * The event behind {@code handle}, which follows its owner's records.
   *
   * @throws IllegalArgumentException if no live interprocess event matches the handle
   */
  public Event openEvent(EventHandle handle) {
    if (handle.node().equals(system.address().toString())) {
      return InlineEvent.open(guardImpl(handle.deviceType()).impl(), handle);
    }
    RemoteEvents remote = remoteEvents;
    if (remote == null) {
      throw new IllegalArgumentException(
          "event handle from node "
              + handle.node()
              + " cannot be opened on node "
              + system.address()
              + ": no cluster support is running here (add openaccel-cluster and use the cluster"
              + " actor provider)");
    }
    return remote.open(handle);
  }

  /**
   * Lets {@code remote} open handles of other nodes; for the distribution module.
   *
   * @throws IllegalStateException if another one is registered
   */
  public synchronized void registerRemoteEvents(RemoteEvents remote) {
    if (remoteEvents != null && remoteEvents != remote) {
      throw new IllegalStateException("remote events are already provided by " + remoteEvents);
    }
    remoteEvents = Objects.requireNonNull(remote, "remote");
  }

  // ---- contexts ----

  /** A snapshot of the caller's current devices and streams. */
  public DeviceContext captureContext() {
    return slots.get();
  }

  /**
   * Runs {@code body} under {@code context}, then restores the caller's own context, also on
   * exceptions.
   *
   * @throws IllegalArgumentException if the context names an unknown device type or an out-of-range
   *     device
   */
  public void runWith(DeviceContext context, Runnable body) {
    checkContext(context);
    DeviceContext previous = slots.get();
    slots.set(context);
    try {
      body.run();
    } finally {
      slots.set(previous);
    }
  }

  /**
   * The trace bus: GPUTrace-style hooks delivered as {@link TraceEvent} messages to subscribers.
   */
  public TraceBus trace() {
    return tracer;
  }

  /**
   * Checks that every device and stream {@code context} names exists here.
   *
   * @throws IllegalArgumentException containing "no backend for device type" or "device index is
   *     out of range"
   */
  public void checkContext(DeviceContext context) {
    Objects.requireNonNull(context, "context");
    context
        .devices()
        .forEach((type, index) -> guardImpl(type).getDefaultStream(Device.of(type, index)));
    context.streams().keySet().forEach(device -> guardImpl(device.type()).getDefaultStream(device));
  }

  /** Internal API: the per-thread and per-actor context slots, for the actor integration. */
  public ContextSlots contextSlots() {
    return slots;
  }

  private BackendContext backendContext() {
    return new BackendContext() {
      @Override
      public ActorSystem<?> system() {
        return system;
      }

      @Override
      public Config config() {
        return system.settings().config();
      }

      @Override
      public CurrentContext currentContext() {
        return slots;
      }

      @Override
      public Tracer tracer() {
        return tracer;
      }
    };
  }

  @Override
  public String toString() {
    return "Accelerator(system=" + system.name() + ", backends=" + backends.types() + ")";
  }
}
