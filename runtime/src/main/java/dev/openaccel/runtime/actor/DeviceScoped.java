package dev.openaccel.runtime.actor;

import dev.openaccel.runtime.DeviceContext;

/**
 * A message that brings its own device context: an actor built with {@link
 * DeviceBehaviors#withDeviceContext} handles it under {@link #deviceContext()} instead of its own,
 * and changes made while handling it are discarded afterwards. A context naming an unknown device
 * type or an out-of-range device is rejected: the message goes to dead letters with a logged error,
 * and the actor keeps working.
 */
public interface DeviceScoped {

  /** The context to handle this message under. */
  DeviceContext deviceContext();
}
