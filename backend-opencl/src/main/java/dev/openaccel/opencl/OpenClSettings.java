package dev.openaccel.opencl;

import com.typesafe.config.Config;
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
    Completions completions) {

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

  /** Reads {@code openaccel.opencl} from {@code config}. */
  public static OpenClSettings from(Config config) {
    Config c = config.getConfig("openaccel.opencl");
    return new OpenClSettings(
        c.getString("platform"),
        c.getList("devices").unwrapped().stream().map(String::valueOf).toList(),
        c.getBoolean("profiling"),
        c.getBoolean("program-cache"),
        c.getString("build-options"),
        c.getString("library"),
        c.getInt("compute-units"),
        c.getInt("stream-pool-size"),
        c.getInt("batch"),
        c.getBytes("memory-per-device"),
        WaitStrategy.parse("openaccel.opencl.wait-strategy", c.getString("wait-strategy")),
        Completions.parse("openaccel.opencl.completions", c.getString("completions")));
  }
}
