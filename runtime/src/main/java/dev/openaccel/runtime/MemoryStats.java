package dev.openaccel.runtime;

/**
 * Memory of one device, in bytes, as {@code torch.cuda.memory_stats} reports it.
 *
 * @param allocated held by live buffers
 * @param reserved held by the allocator: live buffers plus cached free blocks
 * @param peakAllocated the highest {@code allocated} so far
 * @param capacity the device's total memory
 */
public record MemoryStats(long allocated, long reserved, long peakAllocated, long capacity) {}
