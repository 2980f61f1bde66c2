package dev.openaccel.runtime;

import dev.openaccel.runtime.spi.DeviceGuardImpl;

/**
 * Makes a device current for a scope and restores the previous one on {@link #close()}, also when
 * the body throws (use try-with-resources). Guards nest. Only the thread or actor that opened a
 * guard may close it.
 */
public final class DeviceGuard implements AutoCloseable {
  private final DeviceGuardImpl impl;
  private final GuardOwner owner;
  private final Device original;
  private boolean closed;

  DeviceGuard(DeviceGuardImpl impl, GuardOwner owner, Device target) {
    this.impl = impl;
    this.owner = owner;
    this.original = impl.getDevice();
    if (target.hasIndex()) {
      impl.setDevice(target);
    }
    owner.opened(this);
  }

  /** The device that was current when the guard opened. */
  public Device originalDevice() {
    return original;
  }

  /** The device current now. */
  public Device currentDevice() {
    return impl.getDevice();
  }

  /**
   * Switches to another device of the same type inside the scope; {@link #close()} still restores.
   */
  public void setDevice(Device device) {
    owner.check("DeviceGuard");
    impl.setDevice(device);
  }

  /**
   * Restores the original device; idempotent.
   *
   * @throws IllegalStateException if called by another thread or actor than the one that opened it
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    owner.check("DeviceGuard");
    closed = true;
    impl.uncheckedSetDevice(original);
    owner.closed(this);
  }
}
