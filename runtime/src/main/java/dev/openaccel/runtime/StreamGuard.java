package dev.openaccel.runtime;

import dev.openaccel.runtime.spi.DeviceGuardImpl;

/**
 * Makes a stream and its device current for a scope and restores both on {@link #close()}, also
 * when the body throws. Guards nest. Only the thread or actor that opened a guard may close it.
 */
public final class StreamGuard implements AutoCloseable {
  private final DeviceGuardImpl impl;
  private final GuardOwner owner;
  private final Stream stream;
  private final Stream originalStream;
  private final Device originalDevice;
  private boolean closed;

  StreamGuard(DeviceGuardImpl impl, GuardOwner owner, Stream stream) {
    this.impl = impl;
    this.owner = owner;
    this.stream = stream;
    this.originalDevice = impl.getDevice();
    this.originalStream = impl.exchangeStream(stream);
    try {
      impl.setDevice(stream.device());
    } catch (RuntimeException e) { // undo the exchange: a guard that failed to open leaves nothing
      impl.exchangeStream(originalStream);
      throw e;
    }
    owner.opened(this);
  }

  /** The stream that was current on the guarded stream's device when the guard opened. */
  public Stream originalStream() {
    return originalStream;
  }

  /** The stream this guard made current. */
  public Stream currentStream() {
    return stream;
  }

  /** The device that was current when the guard opened. */
  public Device originalDevice() {
    return originalDevice;
  }

  /** The device this guard made current: the guarded stream's. */
  public Device currentDevice() {
    return stream.device();
  }

  /**
   * Restores the original stream and device; idempotent.
   *
   * @throws IllegalStateException if called by another thread or actor than the one that opened it
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    owner.check("StreamGuard");
    closed = true;
    impl.exchangeStream(originalStream);
    impl.uncheckedSetDevice(originalDevice);
    owner.closed(this);
  }
}
