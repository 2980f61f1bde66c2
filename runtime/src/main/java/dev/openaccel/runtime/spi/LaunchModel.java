package dev.openaccel.runtime.spi;

/**
 * How long the simulated hardware takes to start a kernel: a strategy a backend plugs into its
 * {@link EngineSpec}. Called on the device thread, just before each kernel runs.
 */
@FunctionalInterface
public interface LaunchModel {

  /** Nanoseconds to wait before the next kernel on {@code deviceIndex} starts; 0 for none. */
  long delayNanos(int deviceIndex);

  /** Kernels start at once. */
  static LaunchModel immediate() {
    return deviceIndex -> 0L;
  }
}
