package dev.openaccel.benchmarks.support;

import com.typesafe.config.ConfigFactory;
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

  /**
   * Starts an accelerator whose device threads wait as {@code waitStrategy} says. Under {@code
   * busy-spin} there is one device with two threads, so that the spinning threads do not take every
   * core of a small machine (busy-spin is for dedicated cores).
   */
  public static Accelerator start(String waitStrategy) {
    String topology =
        waitStrategy.equals("busy-spin")
            ? "\nopenaccel.openreg.device-count = 1\nopenaccel.openreg.compute-units = 2"
            : "";
    return Accelerator.start(
        ConfigFactory.parseString("openaccel.openreg.wait-strategy = " + waitStrategy + topology)
            .withFallback(ConfigFactory.load()));
  }

  /** OpenReg device {@code index}. */
  public static Device device(int index) {
    return Device.of(OpenRegProvider.TYPE, index);
  }
}
