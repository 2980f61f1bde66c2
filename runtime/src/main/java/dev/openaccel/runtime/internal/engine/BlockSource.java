package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceOutOfMemoryException;
import dev.openaccel.runtime.spi.DeviceMemory;
import java.nio.ByteBuffer;

/**
 * Where a {@link CachingAllocator}'s blocks come from and go back to: host buffers that simulate
 * device memory, or the backend's {@link DeviceMemory}. Internal; thread-safe.
 */
interface BlockSource {

  /** The bytes the allocator may reserve. */
  long capacity();

  /**
   * A new block of {@code size} bytes for {@code stream}'s cache.
   *
   * @throws IllegalArgumentException if the source cannot make a block that large
   * @throws DeviceOutOfMemoryException if the device cannot hold it
   */
  Block reserve(StreamQueue stream, long size);

  /** Gives a block that no buffer holds back to the device. */
  void release(Block block);

  /** {@code capacity} bytes of simulated memory on {@code device}, in heap buffers. */
  static BlockSource simulated(Device device, long capacity) {
    return new BlockSource() {
      @Override
      public long capacity() {
        return capacity;
      }

      @Override
      public Block reserve(StreamQueue stream, long size) {
        if (size > Integer.MAX_VALUE - CachingAllocator.GRANULARITY) {
          throw new IllegalArgumentException(
              "allocation of " + size + " bytes on " + device + " exceeds the largest block size");
        }
        return new Block(ByteBuffer.allocate((int) size), null, size, stream);
      }

      @Override
      public void release(Block block) {} // the garbage collector takes it
    };
  }

  /** The regions of {@code memory} on {@code device}. */
  static BlockSource regions(DeviceMemory memory, Device device) {
    return new BlockSource() {
      @Override
      public long capacity() {
        return memory.capacity(device);
      }

      @Override
      public Block reserve(StreamQueue stream, long size) {
        return new Block(null, memory.reserve(device, size), size, stream);
      }

      @Override
      public void release(Block block) {
        memory.release(block.region());
      }
    };
  }
}
