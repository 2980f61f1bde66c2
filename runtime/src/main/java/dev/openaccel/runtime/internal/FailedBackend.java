package dev.openaccel.runtime.internal;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.PriorityRange;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.BackendEvent;
import dev.openaccel.runtime.spi.Capability;
import dev.openaccel.runtime.spi.DeviceGuardImpl;
import dev.openaccel.runtime.spi.EventFlag;
import java.util.Set;

/**
 * Stands in for a backend whose provider threw while creating it: it has zero devices, and every
 * operation reports the original failure. Internal.
 */
final class FailedBackend implements DeviceGuardImpl {
  private final DeviceType type;
  private final RuntimeException cause;

  FailedBackend(DeviceType type, Throwable cause) {
    this.type = type;
    this.cause =
        new IllegalStateException("backend " + type + " failed to initialise: " + cause, cause);
  }

  private IllegalStateException failed() {
    return new IllegalStateException(cause.getMessage(), cause);
  }

  @Override
  public DeviceType type() {
    return type;
  }

  @Override
  public Set<Capability> capabilities() {
    throw failed();
  }

  @Override
  public int deviceCount() {
    return 0;
  }

  @Override
  public PriorityRange priorityRange() {
    return new PriorityRange(0, 0);
  }

  @Override
  public void uncheckedSetDevice(Device d) {}

  @Override
  public void destroyEvent(BackendEvent e, int deviceIndex) {}

  @Override
  public Device exchangeDevice(Device d) {
    throw failed();
  }

  @Override
  public Device getDevice() {
    throw failed();
  }

  @Override
  public void setDevice(Device d) {
    throw failed();
  }

  @Override
  public Stream getStream(Device d) {
    throw failed();
  }

  @Override
  public Stream getDefaultStream(Device d) {
    throw failed();
  }

  @Override
  public Stream getNewStream(Device d, int priority) {
    throw failed();
  }

  @Override
  public Stream getStreamFromGlobalPool(Device d, boolean highPriority) {
    throw failed();
  }

  @Override
  public Stream exchangeStream(Stream s) {
    throw failed();
  }

  @Override
  public void synchronizeDevice(int deviceIndex) {
    throw failed();
  }

  @Override
  public boolean queryStream(Stream s) {
    throw failed();
  }

  @Override
  public void synchronizeStream(Stream s) {
    throw failed();
  }

  @Override
  public BackendEvent record(BackendEvent eventOrNull, Stream s, int deviceIndex, EventFlag flag) {
    throw failed();
  }

  @Override
  public void block(BackendEvent e, Stream s) {
    throw failed();
  }

  @Override
  public boolean queryEvent(BackendEvent e) {
    throw failed();
  }

  @Override
  public void synchronizeEvent(BackendEvent e) {
    throw failed();
  }

  @Override
  public double elapsedTime(BackendEvent start, BackendEvent end, int deviceIndex) {
    throw failed();
  }
}
