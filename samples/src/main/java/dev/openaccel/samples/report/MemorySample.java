package dev.openaccel.samples.report;

/**
 * A device's allocated memory after an allocation or a free, as the trace bus reported it.
 *
 * @param device the device index
 * @param atNanos when it changed, on the device clock ({@link System#nanoTime()})
 * @param allocatedBytes the device's total afterwards
 */
public record MemorySample(int device, long atNanos, long allocatedBytes) {}
