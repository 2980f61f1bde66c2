package dev.openaccel.runtime;

/**
 * Device code that works on buffers: {@link Stream#launch(String, Kernel, DeviceBuffer...)} runs
 * it. It may rely on what {@link Stream#launch(String, Runnable)} states for every kernel (a clean
 * device context and interrupt flag, its failures its own); its buffer views expire when it
 * returns.
 */
@FunctionalInterface
public interface Kernel {

  /** Runs on the device thread; an exception fails the kernel (reported at the next sync point). */
  void run(KernelContext context) throws Exception;
}
