package dev.openaccel.runtime.spi;

import dev.openaccel.runtime.DeviceType;

/**
 * The entry point of a backend, found with {@link java.util.ServiceLoader}: list the implementing
 * class in {@code META-INF/services/dev.openaccel.runtime.spi.BackendProvider}.
 */
public interface BackendProvider {

  /** The device type this backend serves. */
  DeviceType type();

  /**
   * Creates the backend for one {@code Accelerator}; called once per accelerator. An exception here
   * leaves the backend listed with zero devices.
   */
  DeviceGuardImpl create(BackendContext context);
}
