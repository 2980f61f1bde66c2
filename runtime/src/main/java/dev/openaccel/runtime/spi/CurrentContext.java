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

  /**
   * The calling thread's own context, to read and write many times from that thread without finding
   * it again each time (a device thread running a stream's kernels). Valid only on the calling
   * thread, and only where no actor's own context is installed in its place (an actor's is
   * installed for one message and removed after it). By default, this object itself.
   */
  default CurrentContext ofCallingThread() {
    return this;
  }
}
