package dev.openaccel.runtime.spi;

/**
 * A unit of backend device work (a compiled kernel launch, a device copy) that the engine hands to
 * a stream's {@link DeviceQueue} in stream order. Opaque to the engine; its backend's queue knows
 * how to submit it.
 */
public interface DeviceWork {}
