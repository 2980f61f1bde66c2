package dev.openaccel.opencl;

import static org.lwjgl.opencl.CL10.clReleaseMemObject;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Stream;

/**
 * A {@link DeviceBuffer} as a {@code cl_mem}. Work that names the buffer takes a use at the call
 * ({@link #acquire}) and gives it back once its command is enqueued ({@link #enqueued}); the handle
 * is released only when the buffer is closed and no use is outstanding, so no command is ever
 * enqueued with a released handle. OpenCL itself keeps the memory until the commands enqueued on it
 * have finished, which is what makes reuse wait for all work that used it, on every stream ({@link
 * #recordStream} has nothing left to do but check the buffer is open).
 *
 * <p>Owns: the {@code cl_mem} handle, its open flag and its count of outstanding uses, guarded by
 * this object's monitor. This class is thread-safe.
 */
final class ClBuffer implements DeviceBuffer {
  private final ClDeviceMemory memory;
  private final Device device;
  private final long size;
  private final long mem;
  private boolean closed;
  private int uses;

  ClBuffer(ClDeviceMemory memory, Device device, long size, long mem) {
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
   * @throws IllegalStateException if the buffer is closed
   */
  synchronized long acquire(String use) {
    checkOpen(use);
    uses++;
    return mem;
  }

  /** The {@code cl_mem} while a use taken by {@link #acquire} (a mapped view) is outstanding. */
  long heldHandle() {
    return mem;
  }

  /** Gives back a use once its command was enqueued (or will never be). */
  void enqueued() {
    boolean release;
    synchronized (this) {
      uses--;
      release = closed && uses == 0;
    }
    if (release) {
      clReleaseMemObject(mem);
    }
  }

  @Override
  public synchronized void recordStream(Stream stream) {
    checkOpen("recordStream on");
  }

  @Override
  public void close() {
    boolean release;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      release = uses == 0;
    }
    memory.freed(this);
    if (release) {
      clReleaseMemObject(mem);
    }
  }

  private void checkOpen(String use) {
    if (closed) {
      throw new IllegalStateException("cannot " + use + " a closed buffer: " + this);
    }
  }

  /** The buffer behind {@code buffer}, checked to be one of {@code memory}'s. */
  static ClBuffer of(DeviceBuffer buffer, ClDeviceMemory memory) {
    if (buffer instanceof ClBuffer b && b.memory == memory) {
      return b;
    }
    throw new IllegalArgumentException(
        buffer + " was not allocated by this accelerator's opencl backend");
  }

  @Override
  public String toString() {
    return "DeviceBuffer(device="
        + device
        + ", size="
        + size
        + ", cl_mem=0x"
        + Long.toHexString(mem)
        + ")";
  }
}
