package dev.openaccel.runtime.internal;

import com.typesafe.config.Config;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceContext;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.spi.RemoteEvents;
import dev.openaccel.runtime.spi.VirtualGuardImpl;
import dev.openaccel.runtime.trace.Tracer;
import java.util.Objects;
import java.util.Set;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Extension;
import org.apache.pekko.actor.typed.ExtensionId;

/**
 * The wiring behind one actor system's {@code Accelerator}: its backends, the callers' device
 * contexts, the trace bus, and the hooks OpenAccel's own modules plug into (the cluster module's
 * remote events). A Pekko extension of its own, so the user facade stays a facade. Internal: for
 * the runtime's facade and actor integration and for OpenAccel's modules, not for users.
 *
 * <p>Owns: the backend table and context slots (fixed at construction) and the remote-events hook
 * (set once, under this object's monitor).
 */
public final class AcceleratorCore implements Extension {

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
  private final String defaultType;
  private volatile RemoteEvents remoteEvents;

  private AcceleratorCore(ActorSystem<?> system) {
    this.system = system;
    Config config = system.settings().config();
    this.defaultType = config.getString("openaccel.default-device-type");
    this.tracer = new Tracer(system);
    this.backends =
        BackendRegistry.load(
            system.dynamicAccess().classLoader(),
            config,
            type -> new EngineBackendContext(system, tracer, slots, type));
  }

  /** The wiring of {@code system}'s accelerator, created on first use. */
  public static AcceleratorCore get(ActorSystem<?> system) {
    return Id.INSTANCE.apply(system);
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

  /**
   * The router to the backend of {@code type}.
   *
   * @throws IllegalArgumentException containing "no backend for device type"
   */
  public VirtualGuardImpl router(DeviceType type) {
    return backends.get(Objects.requireNonNull(type, "type"));
  }

  /**
   * Lets {@code remote} open handles of other nodes; for the cluster module.
   *
   * @throws IllegalStateException if another one is registered
   */
  public synchronized void registerRemoteEvents(RemoteEvents remote) {
    if (remoteEvents != null && remoteEvents != remote) {
      throw new IllegalStateException("remote events are already provided by " + remoteEvents);
    }
    remoteEvents = Objects.requireNonNull(remote, "remote");
  }

  /** The registered remote events, or null. */
  public RemoteEvents remoteEvents() {
    return remoteEvents;
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
