package dev.openaccel.runtime;

/**
 * Memory of one device as its caching allocator reports it, after {@code torch.cuda.memory_stats}
 * ({@code torch.accelerator.memory_stats}): bytes now and at the peak, and counts of what happened
 * since the accelerator started. {@link Accelerator#resetPeakMemoryStats} resets {@code
 * peakAllocated} only; nothing resets the counts.
 *
 * @param allocated bytes held by open buffers ({@code "allocated_bytes.all.current"}), each at the
 *     size of its block: its own size rounded up to 512 bytes, or a cached block up to twice that
 * @param reserved bytes the allocator holds of the device: open buffers plus cached free blocks and
 *     blocks of closed buffers still waiting for other streams' work ({@code
 *     "reserved_bytes.all.current"})
 * @param peakAllocated the highest {@code allocated} since the start or the last {@link
 *     Accelerator#resetPeakMemoryStats} ({@code "allocated_bytes.all.peak"})
 * @param capacity the bytes the allocator may reserve on the device
 * @param allocations allocations that succeeded ({@code "allocation.all.allocated"})
 * @param frees buffers closed ({@code "allocation.all.freed"})
 * @param outOfMemoryFailures allocations that failed with {@link DeviceOutOfMemoryException}
 *     ({@code "num_ooms"})
 * @param deviceAllocations blocks reserved from the device, that is allocations the cache could not
 *     serve ({@code "segment.all.allocated"}, {@code "num_device_alloc"})
 * @param deviceReleases blocks given back to the device: by {@link Accelerator#emptyCache}, by an
 *     allocation that needed room, and when the accelerator closes ({@code "segment.all.freed"},
 *     {@code "num_device_free"})
 */
public record MemoryStats(
    long allocated,
    long reserved,
    long peakAllocated,
    long capacity,
    long allocations,
    long frees,
    long outOfMemoryFailures,
    long deviceAllocations,
    long deviceReleases) {

  /**
   * Checks the counts.
   *
   * @throws IllegalArgumentException if a count is negative, naming it
   */
  public MemoryStats {
    // Only the counts: the byte figures were never checked, and callers may already build any.
    checkCount("allocations", allocations);
    checkCount("frees", frees);
    checkCount("outOfMemoryFailures", outOfMemoryFailures);
    checkCount("deviceAllocations", deviceAllocations);
    checkCount("deviceReleases", deviceReleases);
  }

  /** The byte figures alone, every count 0: the record's shape before it had counts. */
  public MemoryStats(long allocated, long reserved, long peakAllocated, long capacity) {
    this(allocated, reserved, peakAllocated, capacity, 0, 0, 0, 0, 0);
  }

  private static void checkCount(String name, long value) {
    if (value < 0) {
      throw new IllegalArgumentException(name + " must be >= 0, got " + value);
    }
  }
}
