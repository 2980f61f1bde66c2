package dev.openaccel.openreg.testing;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.openaccel.runtime.spi.WaitStrategy;

/** OpenReg settings that run a test under one wait strategy. */
public final class WaitStrategies {
  private WaitStrategies() {}

  /**
   * Every device waits as {@code strategy} says. Under {@code busy-spin} each device gets one
   * thread, so that the spinning threads of two devices leave the test's own threads some CPU on a
   * small machine.
   */
  public static Config config(WaitStrategy strategy) {
    String units =
        strategy == WaitStrategy.BUSY_SPIN ? "\nopenaccel.openreg.compute-units = 1" : "";
    return ConfigFactory.parseString(
        "openaccel.openreg.wait-strategy = " + strategy.configName() + units);
  }
}
