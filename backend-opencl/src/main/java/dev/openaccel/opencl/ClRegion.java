package dev.openaccel.opencl;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.spi.DeviceMemory;
import java.nio.ByteBuffer;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A {@code cl_mem} reserved by {@link ClDeviceMemory}, lent by the engine's caching allocator to
 * one buffer at a time. Work that names the region takes a use when it is built ({@link #acquire})
 * and gives it back once its command is enqueued ({@link #enqueued}), or, for a Java kernel, once
 * it has unmapped the region; the handle is released only when the engine gave the region back and
 * no use is outstanding, so no command is ever enqueued with a released handle and no Java kernel
 * maps one. OpenCL itself keeps the memory until the commands enqueued on it have finished.
 *
 * <p>Java kernels of several streams may map the region at once: they share one mapping, made by
 * the first and unmapped by the last ({@link #mapShared}, {@link #unmapShared}), since OpenCL
 * leaves overlapping mappings for writing undefined (PoCL freed the host copy under the other
 * kernel, which crashed the JVM). What a kernel writes through a view reaches device commands once
 * the last view is given back: two streams touching one buffer unordered race anyway.
 *
 * <p>Owns: the {@code cl_mem} handle, its released flag and its count of outstanding uses, guarded
 * by this object's monitor; the shared mapping and its count of views, guarded by {@code mapping}
 * (held around the blocking map and unmap calls, never with the monitor). This class is
 * thread-safe.
 */
final class ClRegion implements DeviceMemory.Region {
  private final ClDeviceMemory memory;
  private final Device device;
  private final long size;
  private final long mem;
  private boolean released;
  private int uses;
  private final Object mapping = new Object();
  private ByteBuffer mapped; // the lent buffer's bytes, while views are out
  private int views;

  ClRegion(ClDeviceMemory memory, Device device, long size, long mem) {
    this.memory = memory;
    this.device = device;
    this.size = size;
    this.mem = mem;
  }

  @Override
  public Device device() {
    return device;
  }

  @Override
  public long size() {
    return size;
  }

  /**
   * Takes a use for a command about to be built.
   *
   * @return the {@code cl_mem}, valid until {@link #enqueued()}
   * @throws IllegalStateException if the region was given back (its buffer was closed)
   */
  synchronized long acquire(String use) {
    if (released) {
      throw new IllegalStateException(
          "cannot " + use + " a closed buffer: its memory " + this + " went back to the device");
    }
    uses++;
    return mem;
  }

  /**
   * The {@code cl_mem} while a use taken by {@link #acquire} (a Java kernel's hold) is outstanding.
   */
  long heldHandle() {
    return mem;
  }

  /**
   * A view of the first {@code bytes} of the region for a Java kernel, which holds a use from its
   * launch until it has unmapped the view ({@link #acquire}): of the region's one mapping, made by
   * {@code map} (of those bytes: every view out at once is of the one buffer the region is lent to)
   * if no view is out. Pair with {@link #unmapShared}.
   */
  ByteBuffer mapShared(long bytes, Supplier<ByteBuffer> map) {
    synchronized (mapping) {
      if (views == 0) {
        mapped = map.get();
      }
      ByteBuffer view = mapped.slice(0, (int) Math.min(bytes, mapped.capacity()));
      views++;
      return view;
    }
  }

  /** Gives a view back; the last one out unmaps the mapping with {@code unmap}. */
  void unmapShared(Consumer<ByteBuffer> unmap) {
    synchronized (mapping) {
      if (--views == 0) {
        ByteBuffer whole = mapped;
        mapped = null;
        unmap.accept(whole);
      }
    }
  }

  /** Gives back a use once its command was enqueued (or will never be). */
  void enqueued() {
    boolean release;
    synchronized (this) {
      uses--;
      release = released && uses == 0;
    }
    if (release) {
      memory.free(mem);
    }
  }

  /** Called when the engine gives the region back; later calls do nothing. */
  void release() {
    boolean now;
    synchronized (this) {
      if (released) {
        return;
      }
      released = true;
      now = uses == 0;
    }
    if (now) {
      memory.free(mem);
    }
  }

  /** The region behind {@code region}, checked to be one of {@code memory}'s. */
  static ClRegion of(DeviceMemory.Region region, ClDeviceMemory memory) {
    if (region instanceof ClRegion r && r.memory == memory) {
      return r;
    }
    throw new IllegalArgumentException(
        region + " was not reserved by this accelerator's opencl backend");
  }

  @Override
  public String toString() {
    return "cl_mem 0x" + Long.toHexString(mem) + " (" + size + " bytes on " + device + ")";
  }
}
