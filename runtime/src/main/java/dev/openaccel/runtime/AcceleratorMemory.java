package dev.openaccel.runtime;

/**
 * Device memory of an {@link Accelerator}, from each device's stream-ordered caching allocator
 * (after PyTorch's CUDA caching allocator): {@code torch.accelerator}'s memory functions. {@link
 * Accelerator} is its only implementation; all methods are thread-safe.
 *
 * <p>Each method takes the device it concerns; a device without index means the caller's current
 * device of its type. A null device is a {@link NullPointerException} naming "device"; a device of
 * a type without backend an {@link IllegalArgumentException} containing "no backend for device
 * type", one past the last device one containing "device index is out of range"; a backend without
 * device memory throws {@link UnsupportedOperationException} containing "doesn't support device
 * memory".
 */
public sealed interface AcceleratorMemory permits Accelerator {

  /**
   * Allocates device memory for use on the caller's current stream of {@code device}; closing the
   * buffer frees it. A block the allocator cached is reused when it fits; when none does and the
   * device is full, the cache goes back to the device before the allocation gives up.
   *
   * @throws IllegalArgumentException if {@code bytes <= 0}
   * @throws DeviceOutOfMemoryException naming the requested, free and capacity bytes
   */
  DeviceBuffer allocate(Device device, long bytes);

  /**
   * The memory statistics of {@code device}, as {@code torch.accelerator.memory_stats} ({@code
   * torch.cuda.memory_stats}).
   */
  MemoryStats memoryStats(Device device);

  /**
   * Makes the peak allocated bytes of {@code device} its allocated bytes now, as {@code
   * torch.accelerator.reset_peak_memory_stats} ({@code torch.cuda.reset_peak_memory_stats}). Only
   * {@link MemoryStats#peakAllocated()} changes: the counts and the other figures stay.
   */
  void resetPeakMemoryStats(Device device);

  /**
   * Gives the free memory the allocator caches for {@code device} back to the device, as {@code
   * torch.accelerator.empty_cache} ({@code torch.cuda.empty_cache}): afterwards {@link
   * MemoryStats#reserved()} is what open buffers hold, and later allocations reserve afresh. Open
   * buffers keep their memory.
   *
   * <p>The memory of a buffer closed while another stream's work may still use it (the buffer was
   * recorded there with {@link DeviceBuffer#recordStream}) is not released early: it stays reserved
   * until the work that stream had enqueued when the buffer was closed completes, and then goes
   * back to the device instead of to the cache. Unlike torch, this call does not wait for that
   * work.
   */
  void emptyCache(Device device);
}
