package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceOutOfMemoryException;
import dev.openaccel.runtime.MemoryStats;
import dev.openaccel.runtime.trace.TraceEvent;
import dev.openaccel.runtime.trace.Tracer;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A stream-ordered caching allocator for one device, after PyTorch's CUDA caching allocator. Freed
 * blocks go to the cache of the stream they were allocated on and are reused at once by allocations
 * on that stream: stream order puts the new owner's work after the old owner's. A buffer recorded
 * on other streams returns its block only once the work those streams had enqueued at free time has
 * completed. When an allocation does not fit, the cache is released before giving up. Internal.
 *
 * <p>Owns: the device's memory accounting and the per-stream caches, guarded by this object's
 * monitor.
 */
final class CachingAllocator {
  /** Blocks are multiples of this many bytes. */
  static final int GRANULARITY = 512;

  /** A cached block is reused for a request of at least 1/MAX_WASTE of its size. */
  private static final int MAX_WASTE = 2;

  private final Device device;
  private final long capacity;
  private final Tracer tracer;
  private final Map<StreamHandle, TreeMap<Integer, ArrayDeque<Block>>> cache = new HashMap<>();
  private long allocated;
  private long reserved;
  private long peak;
  private long nextId;

  CachingAllocator(Device device, long capacity, Tracer tracer) {
    this.device = device;
    this.capacity = capacity;
    this.tracer = tracer;
  }

  Device device() {
    return device;
  }

  /**
   * Allocates {@code bytes} for use on {@code stream}.
   *
   * @throws IllegalArgumentException if {@code bytes <= 0} or above the largest block size
   * @throws DeviceOutOfMemoryException if it does not fit after releasing the cache
   */
  synchronized Buffer allocate(StreamHandle stream, long bytes) {
    if (bytes <= 0) {
      throw new IllegalArgumentException(
          "allocation size must be > 0 bytes, got " + bytes + " on " + device);
    }
    long size = (bytes + GRANULARITY - 1) / GRANULARITY * GRANULARITY;
    if (size > capacity) {
      throw new DeviceOutOfMemoryException(device, bytes, capacity - reserved, capacity);
    }
    if (size > Integer.MAX_VALUE - GRANULARITY) {
      throw new IllegalArgumentException(
          "allocation of " + bytes + " bytes on " + device + " exceeds the largest block size");
    }
    Block block = takeCached(stream, (int) size);
    if (block == null) {
      if (reserved + size > capacity) {
        releaseCache();
      }
      if (reserved + size > capacity) {
        throw new DeviceOutOfMemoryException(device, bytes, capacity - reserved, capacity);
      }
      block = new Block(ByteBuffer.allocate((int) size), (int) size, stream);
      reserved += size;
    }
    allocated += block.size();
    peak = Math.max(peak, allocated);
    Buffer buffer = new Buffer(this, ++nextId, bytes, block);
    if (tracer.enabled()) {
      tracer.publish(
          new TraceEvent.MemoryAllocated(
              device, buffer.id(), block.size(), allocated, System.nanoTime()));
    }
    return buffer;
  }

  /**
   * Takes back {@code block}; it is cached once the work of {@code usedOn} enqueued so far
   * completes.
   */
  void free(Buffer buffer, Block block, Set<StreamHandle> usedOn) {
    synchronized (this) {
      allocated -= block.size();
      if (tracer.enabled()) {
        tracer.publish(
            new TraceEvent.MemoryFreed(
                device, buffer.id(), block.size(), allocated, System.nanoTime()));
      }
    }
    Set<StreamHandle> others = new java.util.HashSet<>(usedOn);
    others.remove(block.stream());
    if (others.isEmpty()) {
      cache(block);
      return;
    }
    AtomicInteger remaining = new AtomicInteger(others.size());
    for (StreamHandle other : others) {
      Generation marker =
          Generation.unnamed("the work enqueued on " + other + " before a buffer was freed");
      other.enqueueOrSettle(new WorkItem.Record(marker)); // a stopped stream runs nothing more
      marker.onComplete(
          done -> {
            if (remaining.decrementAndGet() == 0) {
              cache(block);
            }
          });
    }
  }

  synchronized MemoryStats stats() {
    return new MemoryStats(allocated, reserved, peak, capacity);
  }

  private synchronized void cache(Block block) {
    cache
        .computeIfAbsent(block.stream(), s -> new TreeMap<>())
        .computeIfAbsent(block.size(), s -> new ArrayDeque<>())
        .push(block);
  }

  private Block takeCached(StreamHandle stream, int size) {
    TreeMap<Integer, ArrayDeque<Block>> sizes = cache.get(stream);
    if (sizes == null) {
      return null;
    }
    Map.Entry<Integer, ArrayDeque<Block>> fit = sizes.ceilingEntry(size);
    if (fit == null || fit.getKey() > (long) size * MAX_WASTE) {
      return null;
    }
    Block block = fit.getValue().pop();
    if (fit.getValue().isEmpty()) {
      sizes.remove(fit.getKey());
    }
    return block;
  }

  /** Returns every cached free block to the device. */
  private void releaseCache() {
    for (TreeMap<Integer, ArrayDeque<Block>> sizes : cache.values()) {
      for (Map.Entry<Integer, ArrayDeque<Block>> entry : sizes.entrySet()) {
        reserved -= (long) entry.getKey() * entry.getValue().size();
      }
    }
    cache.clear();
  }
}
