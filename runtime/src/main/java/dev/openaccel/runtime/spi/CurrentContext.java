package dev.openaccel.runtime.spi;

import dev.openaccel.runtime.DeviceContext;

/**
 * The caller's device context: thread-confined for plain threads, the handling actor's own while an
 * actor built with {@code DeviceBehaviors.withDeviceContext} handles a message.
 */
public interface CurrentContext {

  /** The caller's current context. */
  DeviceContext get();

  /** Replaces the caller's current context. */
  void set(DeviceContext context);
}
