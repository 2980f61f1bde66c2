package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.CurrentContext;
import java.util.Objects;

/**
 * The caller's current device and stream for one engine's device type, kept in the caller's {@link
 * dev.openaccel.runtime.DeviceContext} (thread-confined, or the handling actor's own), and the
 * validation of device indices against it. Internal.
 *
 * <p>Owns: nothing; the context belongs to the caller.
 */
final class CurrentDevice {
  private final DeviceType type;
  private final int deviceCount;
  private final CurrentContext current;
  private final EngineDevices devices;

  CurrentDevice(DeviceType type, int deviceCount, CurrentContext current, EngineDevices devices) {
    this.type = type;
    this.deviceCount = deviceCount;
    this.current = current;
    this.devices = devices;
  }

  Device get() {
    return Device.of(type, current.get().deviceIndex(type));
  }

  void set(Device d) {
    current.set(current.get().withDevice(Device.of(type, index(d))));
  }

  /** Like {@link #set} but ignores an invalid device. */
  void setUnchecked(Device d) {
    if (d != null && d.type().equals(type) && d.index() >= 0 && d.index() < deviceCount) {
      current.set(current.get().withDevice(d));
    }
  }

  /** The caller's current stream on {@code d}: the default stream unless one was set. */
  Stream stream(Device d) {
    int index = index(d);
    return current.get().stream(Device.of(type, index))
        .orElseGet(() -> devices.defaultStream(index));
  }

  /** Makes {@code s} (already checked to be this engine's) current on its device. */
  Stream exchangeStream(Stream s) {
    Stream previous = stream(s.device());
    current.set(current.get().withStream(s));
    return previous;
  }

  /**
   * The device index {@code d} names, the current one if it has none.
   *
   * @throws IllegalArgumentException naming the device if it is of another type, or containing
   *     "device index is out of range"
   */
  int index(Device d) {
    Objects.requireNonNull(d, "device");
    if (!d.type().equals(type)) {
      throw new IllegalArgumentException("device " + d + " is not of device type " + type);
    }
    int index = d.hasIndex() ? d.index() : current.get().deviceIndex(type);
    if (index >= deviceCount) {
      throw new IllegalArgumentException(
          "device index is out of range: "
              + d
              + " (device type "
              + type
              + " has "
              + deviceCount
              + " devices, valid indices 0.."
              + (deviceCount - 1)
              + ")");
    }
    return index;
  }
}
