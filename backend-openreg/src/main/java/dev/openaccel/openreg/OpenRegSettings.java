package dev.openaccel.openreg;

import com.typesafe.config.Config;
import java.time.Duration;

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
 */
public record OpenRegSettings(
    int deviceCount,
    int computeUnits,
    int streamPoolSize,
    int batch,
    Duration launchLatency,
    Duration launchJitter,
    long seed,
    long memoryPerDevice) {

  public OpenRegSettings {
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

  /** Reads {@code openaccel.openreg} from {@code config}. */
  public static OpenRegSettings from(Config config) {
    Config c = config.getConfig("openaccel.openreg");
    return new OpenRegSettings(
        c.getInt("device-count"),
        c.getInt("compute-units"),
        c.getInt("stream-pool-size"),
        c.getInt("batch"),
        c.getDuration("launch-latency"),
        c.getDuration("launch-jitter"),
        c.getLong("seed"),
        c.getBytes("memory-per-device"));
  }
}
