package dev.openaccel.openreg;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import dev.openaccel.runtime.spi.ConfigValues;
import dev.openaccel.runtime.spi.WaitStrategy;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/**
 * OpenReg's configuration, read from {@code openaccel.openreg} (see its {@code reference.conf}).
 *
 * @param deviceCount simulated devices
 * @param computeUnits threads per device: how many of a device's streams run kernels at once
 * @param streamPoolSize pooled streams per device and priority
 * @param batch items a stream runs before yielding its thread
 * @param launchLatency fixed delay before each kernel starts
 * @param launchJitter extra random delay, uniform in {@code [0, launchJitter]}
 * @param seed seed of the jitter's random source, for reproducible runs
 * @param memoryPerDevice bytes of simulated memory per device
 * @param waitStrategy how every device's idle threads wait for work
 * @param deviceWaitStrategies per device index, a strategy that overrides {@code waitStrategy}
 */
public record OpenRegSettings(
    int deviceCount,
    int computeUnits,
    int streamPoolSize,
    int batch,
    Duration launchLatency,
    Duration launchJitter,
    long seed,
    long memoryPerDevice,
    WaitStrategy waitStrategy,
    Map<Integer, WaitStrategy> deviceWaitStrategies) {
  private static final String PREFIX = "openaccel.openreg.";

  /**
   * Copies {@code deviceWaitStrategies} and checks the values.
   *
   * @throws IllegalArgumentException naming the key and the value: a per-device wait strategy for a
   *     device beyond {@code deviceCount}, a negative device count or delay, or a memory size
   *     {@code <= 0}
   */
  public OpenRegSettings {
    deviceWaitStrategies = Map.copyOf(deviceWaitStrategies);
    for (int device : deviceWaitStrategies.keySet()) {
      if (device < 0 || device >= deviceCount) {
        throw new IllegalArgumentException(
            PREFIX
                + "devices."
                + device
                + ".wait-strategy names device "
                + device
                + ", but device-count is "
                + deviceCount);
      }
    }
    if (deviceCount < 0) {
      throw new IllegalArgumentException(
          "openaccel.openreg.device-count must be >= 0, got " + deviceCount);
    }
    if (memoryPerDevice <= 0) {
      throw new IllegalArgumentException(
          "openaccel.openreg.memory-per-device must be > 0, got " + memoryPerDevice);
    }
    if (launchLatency.isNegative() || launchJitter.isNegative()) {
      throw new IllegalArgumentException(
          "openaccel.openreg launch-latency and launch-jitter must be >= 0, got "
              + launchLatency
              + " and "
              + launchJitter);
    }
  }

  /**
   * Reads {@code openaccel.openreg} from {@code config}.
   *
   * @throws IllegalArgumentException naming the key, the value and what is allowed, for the first
   *     bad value
   */
  public static OpenRegSettings from(Config config) {
    return new OpenRegSettings(
        ConfigValues.intAtLeast(config, PREFIX + "device-count", 0),
        ConfigValues.intAtLeast(config, PREFIX + "compute-units", 1),
        ConfigValues.intAtLeast(config, PREFIX + "stream-pool-size", 1),
        ConfigValues.intAtLeast(config, PREFIX + "batch", 1),
        ConfigValues.durationAtLeast(config, PREFIX + "launch-latency", Duration.ZERO),
        ConfigValues.durationAtLeast(config, PREFIX + "launch-jitter", Duration.ZERO),
        ConfigValues.longValue(config, PREFIX + "seed"),
        ConfigValues.bytesAtLeast(config, PREFIX + "memory-per-device", 1),
        ConfigValues.choice(config, PREFIX + "wait-strategy", WaitStrategy.values()),
        deviceWaitStrategies(config.getConfig("openaccel.openreg")));
  }

  /** {@code devices.<index>.wait-strategy}, for each device given one. */
  private static Map<Integer, WaitStrategy> deviceWaitStrategies(Config c) {
    Map<Integer, WaitStrategy> strategies = new TreeMap<>();
    if (!c.hasPath("devices")) {
      return strategies;
    }
    for (String index : c.getObject("devices").keySet()) {
      String key = PREFIX + "devices." + index + ".wait-strategy";
      int device;
      try {
        device = Integer.parseInt(index);
      } catch (NumberFormatException notIndex) {
        throw new IllegalArgumentException(
            PREFIX + "devices must be keyed by device index, got '" + index + "'", notIndex);
      }
      String value;
      try {
        value = c.getConfig("devices").getConfig(index).getString("wait-strategy");
      } catch (ConfigException missing) {
        throw new IllegalArgumentException(key + " must be a string: " + missing.getMessage());
      }
      strategies.put(device, WaitStrategy.parse(key, value));
    }
    return strategies;
  }
}
