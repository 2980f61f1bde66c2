package dev.openaccel.benchmarks.opencl;

import com.typesafe.config.ConfigFactory;
import dev.openaccel.opencl.OpenCl;
import dev.openaccel.opencl.OpenClProvider;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;

/** The accelerator the OpenCL benchmarks run on: the opencl backend with its defaults. */
final class OpenClBench {
  /** A kernel that does nothing, for launch and enqueue costs. */
  static final String EMPTY = "__kernel void empty(int unused) {}";

  private OpenClBench() {}

  static Accelerator start() {
    Accelerator accelerator =
        Accelerator.start(
            ConfigFactory.parseString("openaccel.default-device-type = opencl")
                .withFallback(ConfigFactory.load()));
    OpenCl.get(accelerator)
        .unavailableReason()
        .ifPresent(
            reason -> {
              accelerator.close();
              throw new IllegalStateException("the OpenCL benchmarks need OpenCL: " + reason);
            });
    return accelerator;
  }

  static Device device(int index) {
    return Device.of(OpenClProvider.TYPE, index);
  }
}
