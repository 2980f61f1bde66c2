package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceOutOfMemoryException;
import dev.openaccel.runtime.MemoryStats;
import dev.openaccel.runtime.trace.TraceEvent;
import dev.openaccel.runtime.trace.Tracer;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A stream-ordered caching allocator for one device, after PyTorch's CUDA caching allocator. Freed
 * blocks go to the cache of the stream they were allocated on and are reused at once by allocations
 * on that stream: stream order puts the new owner's work after the old owner's. A buffer recorded
 * on other streams returns its block only once the work those streams had enqueued at free time has
 * completed. When an allocation does not fit, the cache is released before giving up. Blocks come
 * from a {@link BlockSource}: simulated memory or the backend's own. When the engine stops ({@link
 * #stop}) every block goes back to the source, those lent to open buffers included. Internal.
 *
 * <p>Owns: the device's memory accounting, the per-stream caches, the set of lent blocks and the
 * stopped flag, guarded by this object's monitor; the blocks in the caches and, once stopped, the
 * lent ones, which it alone gives back to the source.
 */
final class CachingAllocator {
  /** Blocks are multiples of this many bytes. */
  static final int GRANULARITY = 512;

  /** A cached block is reused for a request of at least 1/MAX_WASTE of its size. */
  private static final int MAX_WASTE = 2;

  private final Device device;
  private final BlockSource source;
  private final long capacity;
  private final Tracer tracer;
  private final Map<StreamQueue, TreeMap<Long, ArrayDeque<Block>>> cache = new HashMap<>();
  private final Set<Block> lent = Collections.newSetFromMap(new IdentityHashMap<>());
  private boolean stopped;
  private long allocated;
  private long reserved;
  private long peak;
  private long nextId;

  CachingAllocator(Device device, BlockSource source, Tracer tracer) {
    this.device = device;
    this.source = source;
    this.capacity = source.capacity();
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
  synchronized Buffer allocate(StreamQueue stream, long bytes) {
    if (bytes <= 0) {
      throw new IllegalArgumentException(
          "allocation size must be > 0 bytes, got " + bytes + " on " + device);
    }
    if (stream.closing()) {
      throw new IllegalStateException(stream.stopFailure("it was closed").getMessage());
    }
    long size = (bytes + GRANULARITY - 1) / GRANULARITY * GRANULARITY;
    if (bytes > capacity || size > capacity) {
      throw new DeviceOutOfMemoryException(device, bytes, capacity - reserved, capacity);
    }
    Block block = takeCached(stream, size);
    if (block == null) {
      if (reserved + size > capacity) {
        releaseCache();
      }
      if (reserved + size > capacity) {
        throw new DeviceOutOfMemoryException(device, bytes, capacity - reserved, capacity);
      }
      block = reserve(stream, bytes, size);
      reserved += size;
    }
    lent.add(block);
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
   * completes (or given back to the source, once stopped).
   */
  void free(Buffer buffer, Block block, Set<StreamQueue> usedOn) {
    synchronized (this) {
      allocated -= block.size();
      if (tracer.enabled()) {
        tracer.publish(
            new TraceEvent.MemoryFreed(
                device, buffer.id(), block.size(), allocated, System.nanoTime()));
      }
      if (!lent.remove(block)) {
        return; // given back by stop()
      }
    }
    Set<StreamQueue> others = new java.util.HashSet<>(usedOn);
    others.remove(block.stream());
    if (others.isEmpty()) {
      cache(block);
      return;
    }
    AtomicInteger remaining = new AtomicInteger(others.size());
    for (StreamQueue other : others) {
      Generation marker =
          Generation.unnamed("the work enqueued on " + other + " before a buffer was freed");
      other.enqueueOrSettle(marker); // a stopped stream runs nothing more
      marker.onComplete(
          done -> {
            if (remaining.decrementAndGet() == 0) {
              cache(block);
            }
          });
    }
  }

  /**
   * A new block from the source; a device that refuses it gets the cache back and one more try,
   * then the refusal is reported with this allocator's figures.
   */
  private Block reserve(StreamQueue stream, long bytes, long size) {
    try {
      try {
        return source.reserve(stream, size);
      } catch (DeviceOutOfMemoryException refused) {
        if (cache.isEmpty()) {
          throw refused;
        }
        releaseCache();
        return source.reserve(stream, size);
      }
    } catch (DeviceOutOfMemoryException refused) {
      DeviceOutOfMemoryException failure =
          new DeviceOutOfMemoryException(device, bytes, capacity - reserved, capacity);
      failure.initCause(refused);
      throw failure;
    }
  }

  synchronized MemoryStats stats() {
    return new MemoryStats(allocated, reserved, peak, capacity);
  }

  /**
   * Gives every block back to the source, cached or lent to a buffer still open: the engine
   * stopped, and nothing of its streams runs again. A buffer closed later gives nothing back twice;
   * a block freed later (one that waited for other streams' work) goes straight back.
   */
  synchronized void stop() {
    stopped = true;
    releaseCache();
    lent.forEach(this::giveBack);
    lent.clear();
  }

  private synchronized void cache(Block block) {
    if (stopped) {
      giveBack(block);
      return;
    }
    StreamQueue owner = block.stream();
    if (owner.closing()) { // no more allocations on it: back to the device once its work is done
      Generation marker = Generation.unnamed("the work of " + owner + " before it was closed");
      owner.enqueueOrSettle(marker);
      marker.onComplete(done -> givenBackLater(block));
      return;
    }
    cache
        .computeIfAbsent(block.stream(), s -> new TreeMap<>())
        .computeIfAbsent(block.size(), s -> new ArrayDeque<>())
        .push(block);
  }

  private Block takeCached(StreamQueue stream, long size) {
    TreeMap<Long, ArrayDeque<Block>> sizes = cache.get(stream);
    if (sizes == null) {
      return null;
    }
    Map.Entry<Long, ArrayDeque<Block>> fit = sizes.ceilingEntry(size);
    if (fit == null || fit.getKey() > size * MAX_WASTE) {
      return null;
    }
    Block block = fit.getValue().pop();
    if (fit.getValue().isEmpty()) {
      sizes.remove(fit.getKey());
    }
    return block;
  }

  /** {@code stream} was closed and ran all its work: its cached blocks go back to the device. */
  synchronized void streamClosed(StreamQueue stream) {
    TreeMap<Long, ArrayDeque<Block>> sizes = cache.remove(stream);
    if (sizes != null) {
      sizes.values().forEach(blocks -> blocks.forEach(this::giveBack));
    }
  }

  // A block neither lent nor cached, so stop() did not give it back: it goes now, stopped or not.
  private synchronized void givenBackLater(Block block) {
    giveBack(block);
  }

  /** Returns every cached free block to the device. */
  private void releaseCache() {
    for (TreeMap<Long, ArrayDeque<Block>> sizes : cache.values()) {
      for (ArrayDeque<Block> blocks : sizes.values()) {
        blocks.forEach(this::giveBack);
      }
    }
    cache.clear();
  }

  /** Returns {@code block}, which no buffer holds any more, to the device; under the monitor. */
  private void giveBack(Block block) {
    reserved -= block.size();
    source.release(block);
  }
}
