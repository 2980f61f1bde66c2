package dev.openaccel.runtime.spi;

import dev.openaccel.runtime.PriorityRange;
import java.util.Objects;

/**
 * The shape of a backend's hardware, from which {@link EngineGuardImpl} builds its device and
 * stream actors.
 *
 * @param deviceCount number of devices, {@code >= 0}
 * @param priorityRange the stream priorities the hardware supports
 * @param computeUnits threads of each device's dispatcher: how many of its streams run at once
 * @param streamPoolSize streams per device and priority handed out by {@code streamFromPool}
 * @param batch items a stream runs before yielding its thread to the device's other streams; a
 *     stream of the greatest priority runs four times as many
 * @param launchModel the simulated delay before each kernel
 * @param memoryPerDevice bytes of device memory per device; 0 for a backend without device memory
 */
public record EngineSpec(
    int deviceCount,
    PriorityRange priorityRange,
    int computeUnits,
    int streamPoolSize,
    int batch,
    LaunchModel launchModel,
    long memoryPerDevice) {

  public EngineSpec {
    Objects.requireNonNull(priorityRange, "priorityRange");
    Objects.requireNonNull(launchModel, "launchModel");
    requirePositive("computeUnits", computeUnits);
    requirePositive("streamPoolSize", streamPoolSize);
    requirePositive("batch", batch);
    if (memoryPerDevice < 0) {
      throw new IllegalArgumentException("memoryPerDevice must be >= 0, got " + memoryPerDevice);
    }
    if (deviceCount < 0) {
      throw new IllegalArgumentException("deviceCount must be >= 0, got " + deviceCount);
    }
  }

  private static void requirePositive(String name, int value) {
    if (value <= 0) {
      throw new IllegalArgumentException(name + " must be > 0, got " + value);
    }
  }
}
