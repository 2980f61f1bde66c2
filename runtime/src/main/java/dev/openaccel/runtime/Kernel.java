package dev.openaccel.runtime;

/**
 * Device code that works on buffers: {@link Stream#launch(String, Kernel, DeviceBuffer...)} runs
 * it.
 */
@FunctionalInterface
public interface Kernel {

  /** Runs on the device thread; an exception fails the kernel (reported at the next sync point). */
  void run(KernelContext context) throws Exception;
}
