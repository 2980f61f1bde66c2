package dev.openaccel.runtime.spi;

import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.PriorityRange;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What a backend tells {@link BackendContext#engine} about its hardware: built with named fields,
 * validated by {@link Builder#build()}. Immutable.
 *
 * <pre>{@code
 * EngineSpec spec = EngineSpec.builder(DeviceType.of("openreg"))
 *     .deviceCount(2)
 *     .priorityRange(new PriorityRange(0, 1))
 *     .computeUnits(2)
 *     .capabilities(Capability.EVENTS, Capability.TIMING)
 *     .build();
 * }</pre>
 */
public final class EngineSpec {
  /** The most devices one engine serves (an event keeps its device index in 15 bits). */
  public static final int MAX_DEVICE_COUNT = 1 << 15;

  private final DeviceType type;
  private final int deviceCount;
  private final PriorityRange priorityRange;
  private final int computeUnits;
  private final int streamPoolSize;
  private final int batch;
  private final LaunchModel launchModel;
  private final long memoryPerDevice;
  private final Set<Capability> capabilities;
  private final DeviceExecutor executor;
  private final DeviceMemory memory;
  private final WaitStrategy waitStrategy;
  private final Map<Integer, WaitStrategy> deviceWaitStrategies;

  private EngineSpec(Builder b) {
    this.type = b.type;
    this.deviceCount = b.deviceCount;
    this.priorityRange = b.priorityRange;
    this.computeUnits = b.computeUnits;
    this.streamPoolSize = b.streamPoolSize;
    this.batch = b.batch;
    this.launchModel = b.launchModel;
    this.memoryPerDevice = b.memoryPerDevice;
    this.capabilities = Collections.unmodifiableSet(EnumSet.copyOf(b.capabilities));
    this.executor = b.executor;
    this.memory = b.memory;
    this.waitStrategy = b.waitStrategy;
    this.deviceWaitStrategies = Map.copyOf(b.deviceWaitStrategies);
  }

  /** A builder for a backend of {@code type}; every other field has a default. */
  public static Builder builder(DeviceType type) {
    return new Builder(type);
  }

  /** The device type the engine serves. */
  public DeviceType type() {
    return type;
  }

  /** Number of devices, {@code >= 0}; default 1. */
  public int deviceCount() {
    return deviceCount;
  }

  /** The stream priorities the hardware supports; default {@code 0..0}. */
  public PriorityRange priorityRange() {
    return priorityRange;
  }

  /** Threads of each device's dispatcher: how many of its streams run at once; default 1. */
  public int computeUnits() {
    return computeUnits;
  }

  /** Streams per device and priority handed out by {@code streamFromPool}; default 32. */
  public int streamPoolSize() {
    return streamPoolSize;
  }

  /**
   * Items a stream runs before yielding its thread to the device's other streams; a stream of the
   * greatest priority runs four times as many. Default 64.
   */
  public int batch() {
    return batch;
  }

  /** The delay before each Java kernel starts; default none. */
  public LaunchModel launchModel() {
    return launchModel;
  }

  /** Bytes of engine-managed device memory per device; 0 (the default) for none. */
  public long memoryPerDevice() {
    return memoryPerDevice;
  }

  /**
   * What the backend supports; undeclared capabilities throw. Default: {@link Capability#EVENTS}.
   */
  public Set<Capability> capabilities() {
    return capabilities;
  }

  /** How device work executes; default {@link DeviceExecutor#synchronous()}. */
  public DeviceExecutor executor() {
    return executor;
  }

  /** Backend-owned device memory, or null: see {@link #memoryPerDevice()}. */
  public DeviceMemory memory() {
    return memory;
  }

  /**
   * How the idle threads of device {@code device} wait for work: its own strategy if one was given,
   * else the backend's; default {@link WaitStrategy#BLOCKING}.
   */
  public WaitStrategy waitStrategy(int device) {
    return deviceWaitStrategies.getOrDefault(device, waitStrategy);
  }

  @Override
  public String toString() {
    return "EngineSpec(type="
        + type
        + ", devices="
        + deviceCount
        + ", priorities="
        + priorityRange
        + ", computeUnits="
        + computeUnits
        + ", capabilities="
        + capabilities
        + ")";
  }

  /** Builds an {@link EngineSpec}. Not thread-safe. */
  public static final class Builder {
    private final DeviceType type;
    private int deviceCount = 1;
    private PriorityRange priorityRange = new PriorityRange(0, 0);
    private int computeUnits = 1;
    private int streamPoolSize = 32;
    private int batch = 64;
    private LaunchModel launchModel = LaunchModel.immediate();
    private long memoryPerDevice;
    private Set<Capability> capabilities = EnumSet.of(Capability.EVENTS);
    private DeviceExecutor executor = DeviceExecutor.synchronous();
    private DeviceMemory memory;
    private WaitStrategy waitStrategy = WaitStrategy.BLOCKING;
    private final Map<Integer, WaitStrategy> deviceWaitStrategies = new HashMap<>();

    private Builder(DeviceType type) {
      this.type = Objects.requireNonNull(type, "type");
    }

    /** Sets {@link EngineSpec#deviceCount()}; checked by {@link #build()}. */
    public Builder deviceCount(int count) {
      this.deviceCount = count;
      return this;
    }

    /** Sets {@link EngineSpec#priorityRange()}. */
    public Builder priorityRange(PriorityRange range) {
      this.priorityRange = Objects.requireNonNull(range, "priorityRange");
      return this;
    }

    /** Sets {@link EngineSpec#computeUnits()}; checked by {@link #build()}. */
    public Builder computeUnits(int threads) {
      this.computeUnits = threads;
      return this;
    }

    /** Sets {@link EngineSpec#streamPoolSize()}; checked by {@link #build()}. */
    public Builder streamPoolSize(int streams) {
      this.streamPoolSize = streams;
      return this;
    }

    /** Sets {@link EngineSpec#batch()}; checked by {@link #build()}. */
    public Builder batch(int items) {
      this.batch = items;
      return this;
    }

    /** Sets {@link EngineSpec#launchModel()}. */
    public Builder launchModel(LaunchModel model) {
      this.launchModel = Objects.requireNonNull(model, "launchModel");
      return this;
    }

    /** Sets {@link EngineSpec#memoryPerDevice()}; excludes {@link #memory}. */
    public Builder memoryPerDevice(long bytes) {
      this.memoryPerDevice = bytes;
      return this;
    }

    /** Sets {@link EngineSpec#capabilities()} to exactly these, replacing the default. */
    public Builder capabilities(Capability first, Capability... more) {
      this.capabilities = EnumSet.of(first, more);
      return this;
    }

    /** Sets {@link EngineSpec#capabilities()} to a copy of {@code all}, which may be empty. */
    public Builder capabilities(Set<Capability> all) {
      this.capabilities = all.isEmpty() ? EnumSet.noneOf(Capability.class) : EnumSet.copyOf(all);
      return this;
    }

    /** Sets {@link EngineSpec#executor()}. */
    public Builder executor(DeviceExecutor executor) {
      this.executor = Objects.requireNonNull(executor, "executor");
      return this;
    }

    /** Device memory the backend owns itself; excludes {@link #memoryPerDevice}. */
    public Builder memory(DeviceMemory memory) {
      this.memory = Objects.requireNonNull(memory, "memory");
      return this;
    }

    /** How every device's idle threads wait for work, unless a device has its own. */
    public Builder waitStrategy(WaitStrategy strategy) {
      this.waitStrategy = Objects.requireNonNull(strategy, "waitStrategy");
      return this;
    }

    /** How the idle threads of device {@code device} wait for work, overriding the backend's. */
    public Builder waitStrategy(int device, WaitStrategy strategy) {
      deviceWaitStrategies.put(device, Objects.requireNonNull(strategy, "waitStrategy"));
      return this;
    }

    /**
     * The spec.
     *
     * @throws IllegalArgumentException naming the field and its value if one is out of range
     */
    public EngineSpec build() {
      if (deviceCount < 0 || deviceCount > MAX_DEVICE_COUNT) {
        throw new IllegalArgumentException(
            "deviceCount must be between 0 and " + MAX_DEVICE_COUNT + ", got " + deviceCount);
      }
      requirePositive("computeUnits", computeUnits);
      requirePositive("streamPoolSize", streamPoolSize);
      requirePositive("batch", batch);
      if (memoryPerDevice < 0) {
        throw new IllegalArgumentException("memoryPerDevice must be >= 0, got " + memoryPerDevice);
      }
      for (int device : deviceWaitStrategies.keySet()) {
        if (device < 0 || device >= deviceCount) {
          throw new IllegalArgumentException(
              "waitStrategy given for device "
                  + device
                  + ", but devices are 0.."
                  + (deviceCount - 1));
        }
      }
      boolean hasMemory = memoryPerDevice > 0 || memory != null;
      if (memoryPerDevice > 0 && memory != null) {
        throw new IllegalArgumentException(
            "memoryPerDevice " + memoryPerDevice + " and memory " + memory + " exclude each other");
      }
      if (hasMemory != capabilities.contains(Capability.DEVICE_MEMORY)) {
        throw new IllegalArgumentException(
            "device memory (memoryPerDevice "
                + memoryPerDevice
                + ", memory "
                + memory
                + ") and capability DEVICE_MEMORY must be declared together, got "
                + capabilities);
      }
      return new EngineSpec(this);
    }

    private static void requirePositive(String name, int value) {
      if (value <= 0) {
        throw new IllegalArgumentException(name + " must be > 0, got " + value);
      }
    }
  }
}
