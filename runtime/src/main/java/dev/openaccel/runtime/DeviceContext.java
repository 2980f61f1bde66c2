package dev.openaccel.runtime;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A snapshot of "current" device state: the current device index per device type and the current
 * stream per device. Immutable; the empty context means device 0 of every type, each device's
 * default stream.
 *
 * <p>OpenAccel keeps one per thread (thread-confined, like CUDA's current device) and one per actor
 * built with {@code DeviceBehaviors.withDeviceContext}; {@link Accelerator#captureContext()} and
 * {@link Accelerator#runWith} carry one explicitly into futures, tasks and child actors.
 */
public final class DeviceContext {
  private static final DeviceContext EMPTY = new DeviceContext(Map.of(), Map.of());

  private final Map<DeviceType, Integer> devices;
  private final Map<Device, Stream> streams;

  private DeviceContext(Map<DeviceType, Integer> devices, Map<Device, Stream> streams) {
    this.devices = devices;
    this.streams = streams;
  }

  /** Device 0 of every type, default streams everywhere. */
  public static DeviceContext empty() {
    return EMPTY;
  }

  /** The current device index for {@code type}; 0 if never set. */
  public int deviceIndex(DeviceType type) {
    Integer index = devices.get(type);
    return index == null ? 0 : index;
  }

  /** The current stream of {@code device}, if one other than the default was made current. */
  public Optional<Stream> stream(Device device) {
    return Optional.ofNullable(streams.get(device));
  }

  /** The devices made current, by type (absent types are at device 0). */
  public Map<DeviceType, Integer> devices() {
    return devices;
  }

  /** The streams made current, by device (absent devices use their default stream). */
  public Map<Device, Stream> streams() {
    return streams;
  }

  /**
   * This context with {@code device} current for its type.
   *
   * @throws IllegalArgumentException if the device has no index
   */
  public DeviceContext withDevice(Device device) {
    if (!device.hasIndex()) {
      throw new IllegalArgumentException("a current device needs an index, got " + device);
    }
    if (deviceIndex(device.type()) == device.index()) {
      return this;
    }
    Map<DeviceType, Integer> next = new HashMap<>(devices);
    next.put(device.type(), device.index());
    return new DeviceContext(Map.copyOf(next), streams);
  }

  /** This context with {@code stream} current on its device (the current device is unchanged). */
  public DeviceContext withStream(Stream stream) {
    Objects.requireNonNull(stream, "stream");
    if (stream.equals(streams.get(stream.device()))) {
      return this;
    }
    Map<Device, Stream> next = new HashMap<>(streams);
    next.put(stream.device(), stream);
    return new DeviceContext(devices, Map.copyOf(next));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DeviceContext other
        && devices.equals(other.devices)
        && streams.equals(other.streams);
  }

  @Override
  public int hashCode() {
    return devices.hashCode() * 31 + streams.hashCode();
  }

  @Override
  public String toString() {
    return "DeviceContext(devices=" + devices + ", streams=" + streams + ")";
  }
}
