package dev.openaccel.runtime.internal;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceContext;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventHandle;
import dev.openaccel.runtime.internal.engine.AfterTermination;
import dev.openaccel.runtime.spi.DeviceThread;
import dev.openaccel.runtime.spi.RemoteEvents;
import dev.openaccel.runtime.spi.VirtualGuardImpl;
import dev.openaccel.runtime.trace.Tracer;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Extension;
import org.apache.pekko.actor.typed.ExtensionId;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The wiring behind one actor system's {@code Accelerator}: its backends, the callers' device
 * contexts and the trace bus. A Pekko extension of its own, so the user facade stays a facade.
 * Internal: for the runtime's facade and actor integration only; other modules use the public API
 * and the SPI (the cluster module's one extension point is {@link RemoteEvents}).
 *
 * <p>Owns: the backend table and context slots (fixed at construction) and whether the accelerator
 * owns its system (set once, at start).
 */
public final class AcceleratorCore implements Extension {
  private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);
  // Initialised before any actor system starts, so logging is set up on one thread.
  private static final Logger log = LoggerFactory.getLogger(AcceleratorCore.class);

  /** The extension id. */
  public static final class Id extends ExtensionId<AcceleratorCore> {
    private static final Id INSTANCE = new Id();

    private Id() {}

    @Override
    public AcceleratorCore createExtension(ActorSystem<?> system) {
      return new AcceleratorCore(system);
    }
  }

  private final ActorSystem<?> system;
  private final ContextSlots slots = new ContextSlots();
  private final Tracer tracer;
  private final BackendRegistry backends;
  private final DeviceType configuredType; // null: the only backend is the default
  // The default type's router, found once at start; null if there is none (each use then throws).
  private final VirtualGuardImpl defaultRouter;
  private final AfterTermination afterTermination;
  private volatile boolean ownsSystem;

  private AcceleratorCore(ActorSystem<?> system) {
    this.system = system;
    this.afterTermination = AfterTermination.get(system);
    Config config = system.settings().config();
    RuntimeConfig.check(config, system.dynamicAccess().classLoader()); // fails the start if bad
    String configured = config.getString("openaccel.default-device-type");
    // Parsed once: currentAccelerator() is on the path of every newEvent() and newStream().
    this.configuredType = configured.isEmpty() ? null : DeviceType.of(configured);
    this.tracer = new Tracer(system);
    this.backends =
        BackendRegistry.load(
            system.dynamicAccess().classLoader(),
            config,
            type -> new EngineBackendContext(system, tracer, slots, type));
    this.defaultRouter = findDefaultRouter();
  }

  private VirtualGuardImpl findDefaultRouter() {
    try {
      return router(defaultType());
    } catch (RuntimeException none) {
      return null; // reported by defaultRouter() at each use, as by defaultType()
    }
  }

  /** The wiring of {@code system}'s accelerator, created on first use. */
  public static AcceleratorCore get(ActorSystem<?> system) {
    return Id.INSTANCE.apply(system);
  }

  /**
   * Starts an actor system named by {@code openaccel.system-name} whose accelerator owns it: its
   * {@code close()} terminates the system. {@code config} comes first, then system properties,
   * {@code application.conf} and the libraries' {@code reference.conf}, resolved once merged, so
   * that a reference default defined by another key ({@code openaccel.openreg.stream-pool-size =
   * ${openaccel.stream-pool-size}}) follows that key as {@code config} sets it.
   */
  public static ActorSystem<Void> startOwnedSystem(Config config) {
    Config full =
        config
            .withFallback(ConfigFactory.defaultOverrides())
            .withFallback(ConfigFactory.defaultApplication())
            .withFallback(ConfigFactory.defaultReferenceUnresolved())
            .resolve();
    ActorSystem<Void> system =
        ActorSystem.create(Behaviors.empty(), RuntimeConfig.systemName(full), full);
    get(system).ownsSystem = true;
    log.debug("started actor system {} for its accelerator", system.name());
    return system;
  }

  /**
   * Terminates the system if {@link #startOwnedSystem} created it, and waits until its backends
   * have released what they hold ({@link AfterTermination}); from a thread of that system it only
   * starts the shutdown (waiting there would wait for the thread the caller holds).
   */
  public void closeOwnedSystem() {
    if (!ownsSystem) {
      return;
    }
    system.terminate();
    if (runsOnOwnSystem()) {
      return;
    }
    try {
      system
          .getWhenTerminated()
          .toCompletableFuture()
          .get(CLOSE_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("actor system " + system.name() + " did not terminate", e);
    }
    if (!afterTermination.await(CLOSE_TIMEOUT)) {
      throw new IllegalStateException(
          "the backends of actor system "
              + system.name()
              + " did not release their resources within "
              + CLOSE_TIMEOUT.toSeconds()
              + " s of its termination");
    }
  }

  /** True on a thread of this system: a device thread, or one of Pekko's dispatcher threads. */
  private boolean runsOnOwnSystem() {
    return DeviceThread.isCurrent()
        || Thread.currentThread().getName().startsWith(system.name() + "-");
  }

  public ActorSystem<?> system() {
    return system;
  }

  public Tracer tracer() {
    return tracer;
  }

  /** The per-thread and per-actor device contexts. */
  public ContextSlots contextSlots() {
    return slots;
  }

  /** The device types whose backends were found and enabled, in name order. */
  public Set<DeviceType> types() {
    return backends.types();
  }

  /**
   * The default device type: {@code openaccel.default-device-type}, else the only backend.
   *
   * @throws IllegalStateException if there is no backend, or several and no configured default
   */
  public DeviceType defaultType() {
    if (configuredType != null) {
      return configuredType;
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

  /** Devices of {@link #defaultType()}; never throws, 0 if there is none or it failed. */
  public int defaultDeviceCount() {
    try {
      return router(defaultType()).deviceCount();
    } catch (RuntimeException e) {
      return 0;
    }
  }

  /**
   * The router to the backend of {@link #defaultType()}; on the path of every {@code newEvent()}.
   *
   * @throws IllegalStateException or IllegalArgumentException as {@link #defaultType()} and {@link
   *     #router}
   */
  public VirtualGuardImpl defaultRouter() {
    VirtualGuardImpl found = defaultRouter;
    return found != null ? found : router(defaultType());
  }

  /**
   * The router to the backend of {@code type}.
   *
   * @throws IllegalArgumentException containing "no backend for device type"
   */
  public VirtualGuardImpl router(DeviceType type) {
    return backends.get(Objects.requireNonNull(type, "type"));
  }

  /**
   * The router to the backend of {@code device}'s type.
   *
   * @throws NullPointerException naming "device" if it is null
   * @throws IllegalArgumentException containing "no backend for device type"
   */
  public VirtualGuardImpl router(Device device) {
    return router(Objects.requireNonNull(device, "device").type());
  }

  /**
   * The event behind a handle of another node, through the {@link RemoteEvents} registered for this
   * system.
   *
   * @throws IllegalArgumentException if no cluster support is registered, or it rejects the handle
   */
  public Event openRemote(EventHandle handle) {
    RemoteEvents remote = RemoteEvents.registered(system);
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

  /** Runs {@code body} under {@code context} (checked first), then restores the caller's own. */
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
   * Checks that every device and stream {@code context} names exists here.
   *
   * @throws IllegalArgumentException containing "no backend for device type" or "device index is
   *     out of range"
   */
  public void checkContext(DeviceContext context) {
    Objects.requireNonNull(context, "context");
    context
        .devices()
        .forEach((type, index) -> router(type).getDefaultStream(Device.of(type, index)));
    context.streams().keySet().forEach(device -> router(device.type()).getDefaultStream(device));
  }

  @Override
  public String toString() {
    return "AcceleratorCore(system=" + system.name() + ", backends=" + backends.types() + ")";
  }
}
