package dev.openaccel.runtime;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.openaccel.runtime.internal.AcceleratorCore;
import dev.openaccel.runtime.internal.ContextSlots;
import dev.openaccel.runtime.spi.VirtualGuardImpl;
import dev.openaccel.runtime.trace.TraceBus;
import dev.openaccel.runtime.trace.TraceEvent;
import java.util.Collection;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Extension;
import org.apache.pekko.actor.typed.ExtensionId;

/**
 * The entry point: devices, streams, events and the caller's device context of one actor system, as
 * {@code torch.accelerator}. One per {@link ActorSystem} (a Pekko extension); two systems in one
 * JVM have two independent accelerators. All methods are thread-safe; "current" always means the
 * caller's own context.
 */
public final class Accelerator implements Extension, AutoCloseable {

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

  private final AcceleratorCore core;
  private final ContextSlots slots;

  private Accelerator(ActorSystem<?> system) {
    this.core = AcceleratorCore.get(system);
    this.slots = core.contextSlots();
  }

  /** The accelerator of an existing actor system, created on first use. */
  public static Accelerator get(ActorSystem<?> system) {
    return Id.INSTANCE.apply(system);
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
    return get(AcceleratorCore.startOwnedSystem(config));
  }

  public ActorSystem<?> system() {
    return core.system();
  }

  /**
   * Terminates the actor system if {@link #start()} created it; idempotent. From a plain thread it
   * waits for the termination; from a thread of that system (an actor, a kernel) it starts the
   * shutdown and returns at once, as Pekko's {@code terminate()} does, and the system then
   * terminates by itself: waiting there would wait for the thread the caller holds.
   *
   * <p>Java kernels still running {@code openaccel.interrupt-kernels-after} (2 s) after the last
   * phase of the system's coordinated shutdown began are interrupted, so that one blocked in an
   * interruptible call fails instead of holding the shutdown up (one that ignores interrupts still
   * does). Once the system has terminated, the backends give back what they hold (device memory,
   * buffers still open included; native handles), and a {@code close()} that waits for the
   * termination returns after that.
   *
   * @throws IllegalStateException if the system did not terminate, or its backends did not release
   *     their resources, within 30 seconds each
   */
  @Override
  public void close() {
    core.closeOwnedSystem();
  }

  /** The device types whose backends were found and enabled. */
  public Set<DeviceType> deviceTypes() {
    return core.types();
  }

  /**
   * The default device type: {@code openaccel.default-device-type}, else the only backend.
   *
   * @throws IllegalStateException if there is no backend, or several and no configured default
   */
  public DeviceType currentAccelerator() {
    return core.defaultType();
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
    return core.router(type).deviceCount();
  }

  public PriorityRange priorityRange(DeviceType type) {
    return core.router(type).priorityRange();
  }

  // ---- the caller's device context ----

  public int currentDeviceIndex() {
    return slots.get().deviceIndex(currentAccelerator());
  }

  public Device currentDevice() {
    return currentDevice(currentAccelerator());
  }

  public Device currentDevice(DeviceType type) {
    return core.router(type).getDevice();
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
      core.router(device.type()).setDevice(device);
    }
  }

  public DeviceGuard deviceGuard(int index) {
    return deviceGuard(Device.of(currentAccelerator(), Math.max(index, -1)));
  }

  public DeviceGuard deviceGuard(Device device) {
    return new DeviceGuard(core.router(device.type()), new GuardOwner(slots), device);
  }

  public Stream currentStream() {
    return currentStream(currentDevice());
  }

  public Stream currentStream(Device device) {
    return core.router(device.type()).getStream(device);
  }

  public Stream defaultStream(Device device) {
    return core.router(device.type()).getDefaultStream(device);
  }

  /** Makes {@code stream} current on its device and that device current. */
  public void setStream(Stream stream) {
    VirtualGuardImpl impl = core.router(stream.deviceType());
    impl.exchangeStream(stream);
    impl.setDevice(stream.device());
  }

  public StreamGuard streamGuard(Stream stream) {
    return new StreamGuard(core.router(stream.deviceType()), new GuardOwner(slots), stream);
  }

  /**
   * @throws IllegalArgumentException containing "mix of device types"
   */
  public MultiStreamGuard multiStreamGuard(Collection<Stream> streams) {
    return MultiStreamGuard.open(core, streams);
  }

  public Stream newStream() {
    return newStream(currentDevice());
  }

  public Stream newStream(Device device) {
    return newStream(device, 0);
  }

  public Stream newStream(Device device, int priority) {
    return core.router(device.type()).getNewStream(device, priority);
  }

  public Stream streamFromPool(Device device, boolean highPriority) {
    return core.router(device.type()).getStreamFromGlobalPool(device, highPriority);
  }

  /**
   * @throws IllegalArgumentException if {@code device} has no stream {@code streamId}
   */
  public Stream stream(Device device, long streamId) {
    return core.router(device.type()).getStream(device, streamId);
  }

  /** Blocks until all streams of the current device have completed their work. */
  public void synchronize() {
    synchronize(currentDevice());
  }

  public void synchronize(Device device) {
    core.router(device.type()).synchronizeDevice(device.index());
  }

  public CompletionStage<Void> synchronizeAsync(Device device) {
    return core.router(device.type()).synchronizeDeviceAsync(device.index());
  }

  /**
   * Allocates device memory for use on the caller's current stream of {@code device}.
   *
   * @throws IllegalArgumentException if {@code bytes <= 0}
   * @throws DeviceOutOfMemoryException naming the requested, free and capacity bytes
   */
  public DeviceBuffer allocate(Device device, long bytes) {
    return core.router(device.type()).allocate(currentStream(device), bytes);
  }

  public MemoryStats memoryStats(Device device) {
    return core.router(device.type()).memoryStats(device);
  }

  public Event newEvent() {
    return newEvent(EventOptions.defaults());
  }

  public Event newEvent(EventOptions options) {
    return InlineEvent.create(core.defaultRouter(), options);
  }

  public Event newEvent(DeviceType type, EventOptions options) {
    return InlineEvent.create(core.router(type), options);
  }

  /**
   * The event behind {@code handle}, which follows its owner's records.
   *
   * @throws IllegalArgumentException if no live interprocess event matches the handle
   */
  public Event openEvent(EventHandle handle) {
    if (handle.node().equals(core.system().address().toString())) {
      return InlineEvent.open(core.router(handle.deviceType()), handle);
    }
    return core.openRemote(handle);
  }

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
    core.runWith(context, body);
  }

  /**
   * The trace bus: GPUTrace-style hooks delivered as {@link TraceEvent} messages to subscribers.
   */
  public TraceBus trace() {
    return core.tracer();
  }

  @Override
  public String toString() {
    return "Accelerator(system=" + core.system().name() + ", backends=" + core.types() + ")";
  }
}
