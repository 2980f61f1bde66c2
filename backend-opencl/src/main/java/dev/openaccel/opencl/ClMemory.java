package dev.openaccel.opencl;

import static org.lwjgl.opencl.CL10.CL_MEM_READ_WRITE;
import static org.lwjgl.opencl.CL10.clCreateBuffer;
import static org.lwjgl.opencl.CL10.clReleaseMemObject;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceOutOfMemoryException;
import java.util.concurrent.atomic.AtomicLong;
import org.lwjgl.system.MemoryStack;

/**
 * Allocates and frees {@code cl_mem} buffers in a context. A request the device cannot hold (over
 * {@code CL_DEVICE_MAX_MEM_ALLOC_SIZE}, or refused with {@code CL_MEM_OBJECT_ALLOCATION_FAILURE} or
 * {@code CL_OUT_OF_RESOURCES}) is a {@link DeviceOutOfMemoryException}. Counts the buffers it
 * allocated and has not freed yet; thread-safe.
 */
final class ClMemory {
  private final ClContext context;
  private final AtomicLong live = new AtomicLong();

  ClMemory(ClContext context) {
    this.context = context;
  }

  /**
   * A new {@code cl_mem} of {@code bytes} for device {@code index}; the caller owns it. A refusal
   * reports the largest single allocation as free, or 0 when the device ran out.
   */
  long allocate(int index, long bytes) {
    return context.whileOpen("allocate device memory", () -> allocateOpen(index, bytes));
  }

  private long allocateOpen(int index, long bytes) {
    ClDevice device = context.device(index);
    if (bytes > device.maxAllocation()) {
      throw outOfMemory(index, bytes, device.maxAllocation());
    }
    try (MemoryStack stack = MemoryStack.stackPush()) {
      var rc = stack.mallocInt(1);
      long mem = clCreateBuffer(context.handle(), CL_MEM_READ_WRITE, bytes, rc);
      int code = rc.get(0);
      if (code == -4 || code == -5 || code == -61) {
        throw outOfMemory(index, bytes, 0);
      }
      ClErrors.check(code, "clCreateBuffer(" + bytes + " bytes on " + device.name() + ")");
      live.incrementAndGet();
      return mem;
    }
  }

  void free(long mem) {
    clReleaseMemObject(mem);
    live.decrementAndGet();
  }

  /** How many buffers were allocated and not freed yet. */
  long live() {
    return live.get();
  }

  private DeviceOutOfMemoryException outOfMemory(int index, long bytes, long free) {
    return new DeviceOutOfMemoryException(
        Device.of(OpenClProvider.TYPE, index), bytes, free, context.device(index).globalMemory());
  }
}
