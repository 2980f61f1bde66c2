package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.MemoryStats;
import dev.openaccel.runtime.PriorityRange;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.Capability;
import dev.openaccel.runtime.spi.CurrentContext;
import dev.openaccel.runtime.spi.DeviceControlSlot;
import dev.openaccel.runtime.spi.DeviceMemory;
import dev.openaccel.runtime.spi.DeviceThread;
import dev.openaccel.runtime.spi.DeviceWork;
import dev.openaccel.runtime.spi.Engine;
import dev.openaccel.runtime.spi.EngineSpec;
import dev.openaccel.runtime.trace.Tracer;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * The actor engine of one backend in one actor system, as the backend's {@link Engine}: the
 * caller's current device and stream, the devices ({@link EngineDevices}: actors, streams, memory)
 * and, inherited, the events ({@link EngineEvents}). Every operation checks its arguments and hands
 * the work to a stream. Internal; backends obtain it through {@code BackendContext.engine(spec)}.
 *
 * <p>Owns: nothing mutable itself; see the parts. This class is thread-safe.
 */
public final class ActorEngine extends EngineEvents {
  private final EngineSpec spec;
  private final DeviceType type;
  private final CurrentContext current;
  private final Tracer tracer;
  private final EngineDevices devices;
  private final CurrentDevice currentDevice;
  private final ActorSystem<?> system;

  /**
   * Starts the device actors of {@code spec} under {@code system}'s system guardian.
   *
   * @param syncTimeout the deadline of a device synchronize
   * @param sanitizer {@code openaccel.sanitizer}: whether the stream sanitizer runs, and how
   */
  // The parts keep a reference to their engine; they call back only after construction.
  @SuppressWarnings("this-escape")
  public ActorEngine(
      EngineSpec spec,
      ActorSystem<?> system,
      Tracer tracer,
      CurrentContext current,
      Duration syncTimeout,
      SanitizerMode sanitizer) {
    super(tracer, system.address().toString(), sanitizer, DeviceControlSlot.of(system));
    this.spec = Objects.requireNonNull(spec, "spec");
    this.type = spec.type();
    this.current = current;
    this.tracer = tracer;
    this.system = system;
    this.devices = new EngineDevices(this, system, syncTimeout);
    this.currentDevice = new CurrentDevice(type, spec.deviceCount(), current, devices);
  }

  /**
   * Rejects a blocking call from a device thread or a dispatcher thread of this engine's system.
   *
   * @throws IllegalStateException containing "blocking call on an actor thread"
   */
  @Override
  void checkMayBlock(String call, String asyncAlternative) {
    DeviceThread.checkMayBlock(system, call, asyncAlternative);
  }

  ActorSystem<?> system() {
    return system;
  }

  EngineSpec spec() {
    return spec;
  }

  Tracer tracer() {
    return tracer;
  }

  CurrentContext current() {
    return current;
  }

  EngineDevices devices() {
    return devices;
  }

  @Override
  public DeviceType type() {
    return type;
  }

  @Override
  public Set<Capability> capabilities() {
    return spec.capabilities();
  }

  @Override
  public int deviceCount() {
    return spec.deviceCount();
  }

  @Override
  public PriorityRange priorityRange() {
    return spec.priorityRange();
  }

  // ---- the caller's current device and stream: see CurrentDevice ----

  @Override
  public Device getDevice() {
    return currentDevice.get();
  }

  @Override
  public void setDevice(Device d) {
    currentDevice.set(d);
  }

  @Override
  public Device exchangeDevice(Device d) {
    Device previous = getDevice();
    setDevice(d);
    return previous;
  }

  @Override
  public void uncheckedSetDevice(Device d) {
    currentDevice.setUnchecked(d);
  }

  @Override
  public Stream getStream(Device d) {
    return currentDevice.stream(d);
  }

  @Override
  public Stream exchangeStream(Stream s) {
    return currentDevice.exchangeStream(handleOf(s).stream());
  }

  // ---- streams and devices ----

  @Override
  public Stream getDefaultStream(Device d) {
    return devices.defaultStream(checkIndex(d));
  }

  @Override
  public Stream getNewStream(Device d, int priority) {
    return devices.registry(checkIndex(d)).newStream(priority).stream();
  }

  @Override
  public Stream getStreamFromGlobalPool(Device d, boolean highPriority) {
    require(Capability.STREAM_POOL, "stream pools");
    return devices.registry(checkIndex(d)).fromPool(highPriority).stream();
  }

  @Override
  public Stream getStream(Device d, long streamId) {
    int index = checkIndex(d);
    StreamQueue handle = devices.registry(index).lookup(streamId);
    if (handle == null) {
      throw new IllegalArgumentException(
          "unknown stream id "
              + streamId
              + " on "
              + Device.of(type, index)
              + ": no such stream exists");
    }
    return handle.stream();
  }

  @Override
  public boolean queryStream(Stream s) {
    return handleOf(s).query();
  }

  @Override
  public void synchronizeStream(Stream s) {
    handleOf(s).synchronize();
  }

  @Override
  public void synchronizeDevice(int deviceIndex) {
    checkMayBlock("Accelerator.synchronize()", "Accelerator.synchronizeAsync(device)");
    int index = checkIndex(Device.of(type, deviceIndex));
    Failures.await(
        devices.synchronize(index).toCompletableFuture(), "the work of " + Device.of(type, index));
    deviceSynchronized(index);
  }

  @Override
  public CompletionStage<Void> synchronizeDeviceAsync(int deviceIndex) {
    return devices.synchronize(checkIndex(Device.of(type, deviceIndex)));
  }

  @Override
  public void enqueue(Stream stream, String name, DeviceWork work) {
    Objects.requireNonNull(work, "work");
    StreamQueue handle;
    try {
      Objects.requireNonNull(name, "name");
      handle = handleOf(stream);
    } catch (RuntimeException e) {
      work.discard(); // built for a stream it can never run on
      throw e;
    }
    handle.enqueue(MemoryWork.device(this, stream, name, work)); // discards the work it refuses
  }

  // ---- memory: see EngineDevices ----

  @Override
  public DeviceBuffer allocate(Stream stream, long bytes) {
    require(Capability.DEVICE_MEMORY, "device memory");
    return devices.allocate(handleOf(stream), bytes);
  }

  @Override
  public MemoryStats memoryStats(Device d) {
    return allocator(d).stats();
  }

  @Override
  public void resetPeakMemoryStats(Device d) {
    allocator(d).resetPeak();
  }

  @Override
  public void emptyCache(Device d) {
    allocator(d).emptyCache();
  }

  private CachingAllocator allocator(Device d) {
    require(Capability.DEVICE_MEMORY, "device memory");
    return devices.allocator(checkIndex(d));
  }

  // ---- argument checks ----

  /**
   * The engine side of {@code stream}.
   *
   * @throws IllegalArgumentException if the stream belongs to another backend or accelerator
   */
  @Override
  StreamQueue handleOf(Stream stream) {
    Objects.requireNonNull(stream, "stream");
    if (stream.ops() instanceof StreamQueue handle && handle.engine() == this) {
      return handle;
    }
    throw new IllegalArgumentException(
        stream + " does not belong to this accelerator's " + type.name() + " backend");
  }

  /**
   * The engine side of {@code buffer}.
   *
   * @throws IllegalArgumentException if it was not allocated by this engine
   */
  Buffer bufferOf(DeviceBuffer buffer) {
    Objects.requireNonNull(buffer, "buffer");
    if (buffer instanceof Buffer owned && owned.engine() == this) {
      return owned;
    }
    throw new IllegalArgumentException(
        buffer + " was not allocated by this accelerator's " + type.name() + " backend");
  }

  @Override
  public DeviceMemory.Region region(DeviceBuffer buffer, String use) {
    Block block = bufferOf(buffer).block(use);
    if (block.region() == null) {
      throw new IllegalArgumentException(
          buffer + " is simulated memory of the " + type.name() + " backend, not a device region");
    }
    return block.region();
  }

  /** The device index {@code d} names, the current one if it has none; validated. */
  int checkIndex(Device d) {
    return currentDevice.index(d);
  }

  @Override
  public String toString() {
    return "ActorEngine(" + spec + ")";
  }
}
