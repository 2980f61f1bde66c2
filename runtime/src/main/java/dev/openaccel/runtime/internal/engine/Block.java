package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.spi.DeviceMemory;
import java.nio.ByteBuffer;

/**
 * A block of device memory, held by a {@link CachingAllocator} and lent to one {@link Buffer} at a
 * time: simulated bytes, or a region of the backend's own {@link DeviceMemory}. Its bytes are
 * touched only by copies and kernels in stream order. Internal.
 *
 * @param storage the simulated bytes (capacity {@code size}), or null for a backend region
 * @param region the backend's region, or null for simulated memory
 * @param size the block size, a multiple of the allocator's granularity
 * @param stream the stream whose cache the block belongs to
 */
record Block(ByteBuffer storage, DeviceMemory.Region region, long size, StreamQueue stream) {}
