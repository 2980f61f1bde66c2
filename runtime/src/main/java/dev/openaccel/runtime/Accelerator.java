package dev.openaccel.runtime;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.openaccel.runtime.internal.AcceleratorCore;
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
 * The entry point: devices, streams, events, device memory and the caller's device context of one
 * actor system, as {@code torch.accelerator}. One per {@link ActorSystem} (a Pekko extension); two
 * systems in one JVM have two independent accelerators. All methods are thread-safe; "current"
 * always means the caller's own context. Each operation is documented in its interface.
 */
public final class Accelerator
    implements Extension,
        AutoCloseable,
        AcceleratorDevices,
        AcceleratorStreams,
        AcceleratorEvents,
        AcceleratorMemory {

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

  private Accelerator(ActorSystem<?> system) {
    this.core = AcceleratorCore.get(system);
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

  /** The actor system this accelerator belongs to. */
  public ActorSystem<?> system() {
    return core.system();
  }

  /**
   * Terminates the actor system if {@link #start()} created it; idempotent. From a plain thread it
   * waits for the termination and then for the backends to give back what they hold (device memory,
   * buffers still open included; native handles). From a thread of that system (an actor, a kernel)
   * it starts the shutdown and returns at once, as Pekko's {@code terminate()} does: waiting there
   * would wait for the thread the caller holds. Java kernels still running {@code
   * openaccel.interrupt-kernels-after} (2 s) after the last phase of the coordinated shutdown began
   * are interrupted (one that ignores interrupts still holds the shutdown up).
   *
   * @throws IllegalStateException if the system did not terminate, or its backends did not release
   *     their resources, within 30 seconds each
   */
  @Override
  public void close() {
    core.closeOwnedSystem();
  }

  @Override
  public Set<DeviceType> deviceTypes() {
    return core.types();
  }

  @Override
  public DeviceType currentAccelerator() {
    return core.defaultType();
  }

  @Override
  public int deviceCount() {
    return core.defaultDeviceCount();
  }

  @Override
  public int deviceCount(DeviceType type) {
    return core.router(type).deviceCount();
  }

  @Override
  public VirtualGuardImpl deviceGuardImpl(DeviceType type) {
    return core.router(type);
  }

  @Override
  public PriorityRange priorityRange(DeviceType type) {
    return core.router(type).priorityRange();
  }

  @Override
  public int currentDeviceIndex() {
    return core.contextSlots().get().deviceIndex(currentAccelerator());
  }

  @Override
  public Device currentDevice() {
    return currentDevice(currentAccelerator());
  }

  @Override
  public Device currentDevice(DeviceType type) {
    return core.router(type).getDevice();
  }

  @Override
  public void setDeviceIndex(int index) {
    if (index >= 0) {
      setDevice(Device.of(currentAccelerator(), index));
    }
  }

  @Override
  public void setDevice(Device device) {
    if (device.hasIndex()) {
      core.router(device.type()).setDevice(device);
    }
  }

  @Override
  public DeviceGuard deviceGuard(int index) {
    return deviceGuard(Device.of(currentAccelerator(), Math.max(index, -1)));
  }

  @Override
  public DeviceGuard deviceGuard(Device device) {
    return new DeviceGuard(core.router(device.type()), new GuardOwner(core.contextSlots()), device);
  }

  @Override
  public Stream currentStream() {
    return currentStream(currentDevice());
  }

  @Override
  public Stream currentStream(Device device) {
    return core.router(device.type()).getStream(device);
  }

  @Override
  public Stream defaultStream(Device device) {
    return core.router(device.type()).getDefaultStream(device);
  }

  @Override
  public void setStream(Stream stream) {
    VirtualGuardImpl impl = core.router(stream.deviceType());
    impl.exchangeStream(stream);
    impl.setDevice(stream.device());
  }

  @Override
  public StreamGuard streamGuard(Stream stream) {
    return new StreamGuard(
        core.router(stream.deviceType()), new GuardOwner(core.contextSlots()), stream);
  }

  @Override
  public MultiStreamGuard multiStreamGuard(Collection<Stream> streams) {
    return MultiStreamGuard.open(core, streams);
  }

  @Override
  public Stream newStream() {
    return newStream(currentDevice());
  }

  @Override
  public Stream newStream(Device device) {
    return newStream(device, 0);
  }

  @Override
  public Stream newStream(Device device, int priority) {
    return core.router(device.type()).getNewStream(device, priority);
  }

  @Override
  public Stream streamFromPool(Device device, boolean highPriority) {
    return core.router(device.type()).getStreamFromGlobalPool(device, highPriority);
  }

  @Override
  public Stream stream(Device device, long streamId) {
    return core.router(device.type()).getStream(device, streamId);
  }

  @Override
  public void synchronize() {
    synchronize(currentDevice());
  }

  @Override
  public void synchronize(Device device) {
    core.router(device.type()).synchronizeDevice(device.index());
  }

  @Override
  public CompletionStage<Void> synchronizeAsync(Device device) {
    return core.router(device.type()).synchronizeDeviceAsync(device.index());
  }

  @Override
  public DeviceBuffer allocate(Device device, long bytes) {
    return core.router(device).allocate(currentStream(device), bytes);
  }

  @Override
  public MemoryStats memoryStats(Device device) {
    return core.router(device).memoryStats(device);
  }

  @Override
  public void resetPeakMemoryStats(Device device) {
    core.router(device).resetPeakMemoryStats(device);
  }

  @Override
  public void emptyCache(Device device) {
    core.router(device).emptyCache(device);
  }

  @Override
  public Event newEvent() {
    return newEvent(EventOptions.defaults());
  }

  @Override
  public Event newEvent(EventOptions options) {
    return InlineEvent.create(core.defaultRouter(), options);
  }

  @Override
  public Event newEvent(DeviceType type, EventOptions options) {
    return InlineEvent.create(core.router(type), options);
  }

  @Override
  public Event openEvent(EventHandle handle) {
    if (handle.node().equals(core.system().address().toString())) {
      return InlineEvent.open(core.router(handle.deviceType()), handle);
    }
    return core.openRemote(handle);
  }

  @Override
  public DeviceContext captureContext() {
    return core.contextSlots().get();
  }

  @Override
  public void runWith(DeviceContext context, Runnable body) {
    core.runWith(context, body);
  }

  /** The trace bus: GPUTrace-style hooks, as {@link TraceEvent} messages to subscribers. */
  public TraceBus trace() {
    return core.tracer();
  }

  @Override
  public String toString() {
    return "Accelerator(system=" + core.system().name() + ", backends=" + core.types() + ")";
  }
}
