package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceOutOfMemoryException;
import dev.openaccel.runtime.MemoryStats;
import dev.openaccel.runtime.trace.TraceEvent;
import dev.openaccel.runtime.trace.Tracer;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
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
 * completed. When an allocation does not fit, the cache is released before giving up; {@link
 * #emptyCache} releases it on request. Blocks come from a {@link BlockSource}: simulated memory or
 * the backend's own. When the engine stops ({@link #stop}) every block goes back to the source,
 * those lent to open buffers included. Internal.
 *
 * <p>Owns: the device's memory accounting and counts, the per-stream caches, the sets of lent and
 * waiting blocks and the stopped flag, guarded by this object's monitor; the blocks in the caches
 * and, once stopped, the lent ones, which it alone gives back to the source.
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
  private final Set<Block> lent = identitySet();
  // Freed, waiting for other streams' work; of those, the ones emptyCache sends back when done.
  private final Set<Block> waiting = identitySet();
  private final Set<Block> releaseWhenDone = identitySet();
  private boolean stopped;
  private long allocated;
  private long reserved;
  private long peak;
  private long nextId;
  private long allocations;
  private long frees;
  private long outOfMemoryFailures;
  private long deviceAllocations;
  private long deviceReleases;

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
      throw outOfMemory(bytes);
    }
    Block block = takeCached(stream, size);
    if (block == null) {
      if (reserved + size > capacity) {
        releaseCache();
      }
      if (reserved + size > capacity) {
        throw outOfMemory(bytes);
      }
      block = reserve(stream, bytes, size);
      reserved += size;
      deviceAllocations++;
    }
    lent.add(block);
    allocations++;
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
   * completes (or given back to the source: once stopped, or if {@link #emptyCache} ran meanwhile).
   */
  void free(Buffer buffer, Block block, Set<StreamQueue> usedOn) {
    Set<StreamQueue> others = new HashSet<>(usedOn);
    others.remove(block.stream());
    synchronized (this) {
      allocated -= block.size();
      frees++;
      if (tracer.enabled()) {
        tracer.publish(
            new TraceEvent.MemoryFreed(
                device, buffer.id(), block.size(), allocated, System.nanoTime()));
      }
      if (!lent.remove(block)) {
        return; // given back by stop()
      }
      if (others.isEmpty()) {
        cache(block);
        return;
      }
      waiting.add(block);
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
      DeviceOutOfMemoryException failure = outOfMemory(bytes);
      failure.initCause(refused);
      throw failure;
    }
  }

  /**
   * Counts a failed allocation of {@code bytes} and returns its exception, with this device's
   * figures.
   */
  private DeviceOutOfMemoryException outOfMemory(long bytes) {
    outOfMemoryFailures++;
    return new DeviceOutOfMemoryException(device, bytes, capacity - reserved, capacity);
  }

  synchronized MemoryStats stats() {
    return new MemoryStats(
        allocated,
        reserved,
        peak,
        capacity,
        allocations,
        frees,
        outOfMemoryFailures,
        deviceAllocations,
        deviceReleases);
  }

  /** Makes the peak the bytes allocated now; nothing else changes. */
  synchronized void resetPeak() {
    peak = allocated;
  }

  /**
   * Gives every cached block back to the source. A block still waiting for other streams' work (its
   * buffer was recorded on them) is not given back early: it goes back, instead of to the cache,
   * once that work completes.
   */
  synchronized void emptyCache() {
    releaseCache();
    releaseWhenDone.addAll(waiting);
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
    waiting.remove(block);
    boolean emptied = releaseWhenDone.remove(block);
    if (stopped || emptied) {
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
    deviceReleases++;
    source.release(block);
  }

  private static Set<Block> identitySet() {
    return Collections.newSetFromMap(new IdentityHashMap<>());
  }
}
