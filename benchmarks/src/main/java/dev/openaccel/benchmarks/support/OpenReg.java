package dev.openaccel.benchmarks.support;

import dev.openaccel.openreg.OpenRegProvider;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;

/** The accelerator every benchmark runs on: OpenReg with its defaults (no simulated latency). */
public final class OpenReg {
  /** A kernel that does nothing: what is left to measure is the runtime's own cost. */
  public static final Runnable EMPTY = () -> {};

  private OpenReg() {}

  /** Starts an accelerator with its own actor system, configured by {@code application.conf}. */
  public static Accelerator start() {
    return Accelerator.start();
  }

  /** OpenReg device {@code index}. */
  public static Device device(int index) {
    return Device.of(OpenRegProvider.TYPE, index);
  }
}
