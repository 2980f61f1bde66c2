package dev.openaccel.runtime.internal.engine;

import java.nio.ByteBuffer;

/**
 * A block of simulated device memory, held by a {@link CachingAllocator} and lent to one {@link
 * Buffer} at a time. Its bytes are touched only by copies and kernels running on device threads.
 * Internal.
 *
 * @param storage the bytes; capacity {@code size}
 * @param size the block size, a multiple of the allocator's granularity
 * @param stream the stream whose cache the block belongs to
 */
record Block(ByteBuffer storage, int size, StreamHandle stream) {}
