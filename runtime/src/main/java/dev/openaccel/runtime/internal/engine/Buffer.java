package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Stream;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The engine's {@link DeviceBuffer}: a block lent by its device's {@link CachingAllocator}.
 * Internal.
 *
 * <p>Owns: the set of streams it was recorded on and its closed flag, both guarded by this object's
 * monitor.
 */
final class Buffer implements DeviceBuffer {
  private final CachingAllocator allocator;
  private final long id;
  private final long size;
  private final Block block;
  private final Set<StreamQueue> usedOn = new LinkedHashSet<>();
  private volatile boolean closed;

  Buffer(CachingAllocator allocator, long id, long size, Block block) {
    this.allocator = allocator;
    this.id = id;
    this.size = size;
    this.block = block;
  }

  @Override
  public Device device() {
    return allocator.device();
  }

  @Override
  public long size() {
    return size;
  }

  long id() {
    return id;
  }

  ActorEngine engine() {
    return block.stream().engine();
  }

  @Override
  public synchronized void recordStream(Stream stream) {
    StreamQueue handle = block.stream().engine().handleOf(stream);
    checkOpen("recordStream on");
    usedOn.add(handle);
  }

  /**
   * The block, for a copy or kernel being enqueued now.
   *
   * @throws IllegalStateException if closed
   */
  Block block(String use) {
    checkOpen(use);
    return block;
  }

  @Override
  public void close() {
    Set<StreamQueue> streams;
    synchronized (this) {
      if (closed) {
        return;
      }
      block.stream()
          .checkNotCapturing("freeing " + this + ", allocated on " + block.stream().stream());
      Sanitizer sanitizer = engine().sanitizer();
      if (sanitizer != null) { // may throw: the buffer stays open
        sanitizer.closing(this, block.stream().stream(), streamsOf(usedOn));
      }
      closed = true;
      streams = Set.copyOf(usedOn);
    }
    allocator.free(this, block, streams);
  }

  /** Whether it was closed: a graph that uses it can no longer be launched. */
  boolean isClosed() {
    return closed;
  }

  private static Set<Stream> streamsOf(Set<StreamQueue> queues) {
    Set<Stream> streams = new HashSet<>();
    queues.forEach(queue -> streams.add(queue.stream()));
    return streams;
  }

  private void checkOpen(String use) {
    if (closed) {
      throw new IllegalStateException("cannot " + use + " a closed buffer: " + this);
    }
  }

  @Override
  public String toString() {
    return "DeviceBuffer(device=" + device() + ", id=" + id + ", size=" + size + ")";
  }
}
