package dev.openaccel.micrometer;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.MemoryStats;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * The meters of one device in one registry: its memory gauges (if its backend declares device
 * memory), and the kernel and event counters and the kernel timer that {@link MetricsActor} feeds.
 * Internal.
 *
 * <p>Owns nothing mutable: every field is final, and the meters are Micrometer's, thread-safe.
 */
final class DeviceMeters {
  final Counter kernelsStarted;
  final Counter kernelsFinished;
  final Counter kernelsFailed;
  final Timer kernelDuration;
  final Counter eventsRecorded;
  final Counter eventsWaited;
  final Counter eventsSynchronized;
  private final List<Meter> meters;

  private DeviceMeters(MeterRegistry registry, Tags tags, List<Meter> memory) {
    this.kernelsStarted =
        counter(registry, tags, MeterNames.KERNELS_STARTED, "kernels", "Kernels started");
    this.kernelsFinished =
        counter(registry, tags, MeterNames.KERNELS_FINISHED, "kernels", "Kernels ended");
    this.kernelsFailed =
        counter(registry, tags, MeterNames.KERNELS_FAILED, "kernels", "Kernels that failed");
    this.kernelDuration =
        Timer.builder(MeterNames.KERNEL_DURATION)
            .description("How long each kernel ran")
            .tags(tags)
            .register(registry);
    this.eventsRecorded =
        counter(registry, tags, MeterNames.EVENTS_RECORDED, "events", "Event records");
    this.eventsWaited =
        counter(registry, tags, MeterNames.EVENTS_WAITED, "events", "Stream waits for events");
    this.eventsSynchronized =
        counter(registry, tags, MeterNames.EVENTS_SYNCHRONIZED, "events", "Host event waits");
    List<Meter> all = new ArrayList<>(memory);
    all.addAll(
        List.of(
            kernelsStarted,
            kernelsFinished,
            kernelsFailed,
            kernelDuration,
            eventsRecorded,
            eventsWaited,
            eventsSynchronized));
    this.meters = List.copyOf(all);
  }

  /**
   * Registers the meters of {@code device} of {@code accelerator} in {@code registry}, tagged with
   * {@code tags} (the device's and the binder's common tags).
   */
  static DeviceMeters register(
      Accelerator accelerator, Device device, MeterRegistry registry, Tags tags) {
    return new DeviceMeters(registry, tags, memoryGauges(accelerator, device, registry, tags));
  }

  /** Every meter of the device, to remove from the registry. */
  List<Meter> meters() {
    return meters;
  }

  private static List<Meter> memoryGauges(
      Accelerator accelerator, Device device, MeterRegistry registry, Tags tags) {
    try {
      accelerator.memoryStats(device);
    } catch (UnsupportedOperationException noDeviceMemory) {
      // The backend declares no device memory: there is nothing to measure, and no gauge says so.
      return List.of();
    }
    return List.of(
        memory(
            accelerator,
            device,
            registry,
            tags,
            MeterNames.MEMORY_ALLOCATED,
            "Held by live buffers",
            MemoryStats::allocated),
        memory(
            accelerator,
            device,
            registry,
            tags,
            MeterNames.MEMORY_RESERVED,
            "Held by the caching allocator: live buffers and cached free blocks",
            MemoryStats::reserved),
        memory(
            accelerator,
            device,
            registry,
            tags,
            MeterNames.MEMORY_PEAK,
            "The highest allocated so far",
            MemoryStats::peakAllocated),
        memory(
            accelerator,
            device,
            registry,
            tags,
            MeterNames.MEMORY_CAPACITY,
            "The device's total memory",
            MemoryStats::capacity));
  }

  private static Gauge memory(
      Accelerator accelerator,
      Device device,
      MeterRegistry registry,
      Tags tags,
      String name,
      String description,
      ToLongFunction<MemoryStats> field) {
    return Gauge.builder(name, accelerator, a -> field.applyAsLong(a.memoryStats(device)))
        .description(description)
        .baseUnit("bytes")
        .tags(tags)
        .register(registry);
  }

  private static Counter counter(
      MeterRegistry registry, Tags tags, String name, String unit, String description) {
    return Counter.builder(name)
        .description(description)
        .baseUnit(unit)
        .tags(tags)
        .register(registry);
  }
}
