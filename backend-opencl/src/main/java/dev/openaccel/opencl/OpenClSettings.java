package dev.openaccel.opencl;

import com.typesafe.config.Config;
import dev.openaccel.runtime.spi.ConfigValues;
import dev.openaccel.runtime.spi.WaitStrategy;
import java.util.List;
import java.util.Objects;

/**
 * The OpenCL backend's configuration, read from {@code openaccel.opencl} (see its {@code
 * reference.conf}).
 *
 * @param platform "" for the first platform with a device, an index, or part of a platform name
 * @param devices selected devices of that platform: empty for all, else indices or parts of names
 * @param profiling queues with profiling enabled (timing events)
 * @param programCache keep built programs per accelerator
 * @param buildOptions options passed to every program build
 * @param library the OpenCL ICD loader library to load
 * @param computeUnits threads of each device's dispatcher
 * @param streamPoolSize pooled streams per device
 * @param batch items a stream runs before yielding its thread
 * @param memoryPerDevice bytes the allocator may use per device; 0 for the device's global memory
 * @param waitStrategy how idle device threads wait for work (and for device callbacks' hand-offs)
 * @param completions how the end of a command reaches Java: callbacks, waiting threads, or auto
 * @param checkedKernels whether programs are checked unless their {@link ProgramOptions} say
 */
public record OpenClSettings(
    String platform,
    List<String> devices,
    boolean profiling,
    boolean programCache,
    String buildOptions,
    String library,
    int computeUnits,
    int streamPoolSize,
    int batch,
    long memoryPerDevice,
    WaitStrategy waitStrategy,
    Completions completions,
    boolean checkedKernels) {

  /**
   * Copies {@code devices} and checks the values.
   *
   * @throws IllegalArgumentException naming the key and the value, for a negative {@code
   *     memoryPerDevice} or a {@code computeUnits <= 0}; {@link NullPointerException} for a null
   *     component
   */
  public OpenClSettings {
    Objects.requireNonNull(platform, "platform");
    devices = List.copyOf(devices);
    Objects.requireNonNull(buildOptions, "buildOptions");
    Objects.requireNonNull(library, "library");
    Objects.requireNonNull(waitStrategy, "waitStrategy");
    Objects.requireNonNull(completions, "completions");
    if (memoryPerDevice < 0) {
      throw new IllegalArgumentException(
          "openaccel.opencl.memory-per-device must be >= 0, got " + memoryPerDevice);
    }
    if (computeUnits <= 0) {
      throw new IllegalArgumentException(
          "openaccel.opencl.compute-units must be > 0, got " + computeUnits);
    }
  }

  /**
   * Reads {@code openaccel.opencl} from {@code config}.
   *
   * @throws IllegalArgumentException naming the key, the value and what is allowed, for the first
   *     bad value
   */
  public static OpenClSettings from(Config config) {
    String p = "openaccel.opencl.";
    return new OpenClSettings(
        ConfigValues.string(config, p + "platform"),
        ConfigValues.stringList(config, p + "devices"),
        ConfigValues.bool(config, p + "profiling"),
        ConfigValues.bool(config, p + "program-cache"),
        ConfigValues.string(config, p + "build-options"),
        library(config, p + "library"),
        ConfigValues.intAtLeast(config, p + "compute-units", 1),
        ConfigValues.intAtLeast(config, p + "stream-pool-size", 1),
        ConfigValues.intAtLeast(config, p + "batch", 1),
        ConfigValues.bytesAtLeast(config, p + "memory-per-device", 0),
        ConfigValues.choice(config, p + "wait-strategy", WaitStrategy.values()),
        ConfigValues.choice(config, p + "completions", Completions.values()),
        ConfigValues.bool(config, p + "checked-kernels"));
  }

  private static String library(Config config, String key) {
    String library = ConfigValues.string(config, key);
    if (library.isBlank()) {
      throw ConfigValues.invalid(config, key, "the name or path of an OpenCL ICD loader");
    }
    return library;
  }
}
