package dev.openaccel.cluster;

import dev.openaccel.runtime.KernelContext;

/**
 * Device code that can be launched from another node: registered under a name in each node's {@link
 * KernelRegistry}, launched by that name with serialized arguments. Code never crosses the wire.
 */
@FunctionalInterface
public interface RemoteKernel {

  /**
   * Runs on the owning node's device thread, with views of the launch's buffers in {@code context}.
   * An exception fails the kernel; it is reported at the next synchronization point, as locally.
   */
  void run(KernelContext context, byte[] args) throws Exception;
}
