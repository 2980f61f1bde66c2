package dev.openaccel.opencl;

import static org.lwjgl.opencl.CL10.CL_MAP_READ;
import static org.lwjgl.opencl.CL10.CL_MAP_WRITE;
import static org.lwjgl.opencl.CL10.clEnqueueMapBuffer;
import static org.lwjgl.opencl.CL10.clEnqueueUnmapMemObject;
import static org.lwjgl.opencl.CL10.clFinish;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.DeviceOutOfMemoryException;
import dev.openaccel.runtime.MemoryStats;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.CopyChecks;
import dev.openaccel.runtime.spi.DeviceMemory;
import dev.openaccel.runtime.spi.DeviceWork;
import java.nio.ByteBuffer;
import org.lwjgl.system.MemoryStack;

/**
 * The OpenCL backend's device memory: {@code cl_mem} buffers with per-device accounting, copies as
 * non-blocking commands, and mapped views for Java kernels. Memory is not cached: {@code
 * clCreateBuffer} is cheap and OpenCL frees a buffer only after the commands using it finished.
 *
 * <p>Owns: each device's accounting (allocated, peak), guarded by this object's monitor; the
 * per-device map queues, used only by blocking map/unmap calls (OpenCL queues are thread-safe).
 */
final class ClDeviceMemory implements DeviceMemory {
  private final ClContext context;
  private final ClMemory memory;
  private final long[] capacity;
  private final long[] allocated;
  private final long[] peak;
  private final ClQueue[] mapQueues;

  ClDeviceMemory(ClContext context, long limitPerDevice) {
    this.context = context;
    this.memory = new ClMemory(context);
    int devices = context.devices().size();
    this.capacity = new long[devices];
    this.allocated = new long[devices];
    this.peak = new long[devices];
    this.mapQueues = new ClQueue[devices];
    for (int i = 0; i < devices; i++) {
      long global = context.device(i).globalMemory();
      capacity[i] = limitPerDevice > 0 ? Math.min(limitPerDevice, global) : global;
      mapQueues[i] = new ClQueue(context, i, false);
    }
  }

  @Override
  public DeviceBuffer allocate(Stream stream, long bytes) {
    if (bytes <= 0) {
      throw new IllegalArgumentException("allocation size must be > 0 bytes, got " + bytes);
    }
    int index = stream.deviceIndex();
    Device device = stream.device();
    long free;
    synchronized (this) {
      free = capacity[index] - allocated[index];
      if (bytes > free) {
        throw new DeviceOutOfMemoryException(device, bytes, free, capacity[index]);
      }
      allocated[index] += bytes;
      peak[index] = Math.max(peak[index], allocated[index]);
    }
    try {
      return new ClBuffer(this, device, bytes, memory.allocate(index, bytes, free));
    } catch (RuntimeException e) {
      synchronized (this) {
        allocated[index] -= bytes;
      }
      throw e;
    }
  }

  /** Called once by a buffer's close. */
  synchronized void freed(ClBuffer buffer) {
    allocated[buffer.device().index()] -= buffer.size();
  }

  @Override
  public synchronized MemoryStats stats(Device device) {
    int i = device.index();
    return new MemoryStats(allocated[i], allocated[i], peak[i], capacity[i]);
  }

  @Override
  public DeviceWork copyToDevice(ByteBuffer src, DeviceBuffer dst) {
    CopyChecks.toDevice(src, dst);
    return new ClCopy.ToDevice(src, ClBuffer.of(dst, this));
  }

  @Override
  public DeviceWork copyToHost(DeviceBuffer src, ByteBuffer dst) {
    CopyChecks.toHost(src, dst);
    return new ClCopy.ToHost(ClBuffer.of(src, this), dst);
  }

  @Override
  public DeviceWork copy(DeviceBuffer src, DeviceBuffer dst) {
    CopyChecks.between(src, dst);
    return new ClCopy.Between(ClBuffer.of(src, this), ClBuffer.of(dst, this));
  }

  @Override
  public ByteBuffer map(DeviceBuffer buffer) {
    ClBuffer b = ClBuffer.of(buffer, this);
    long mem = b.acquire("launch a kernel on");
    try (MemoryStack stack = MemoryStack.stackPush()) {
      var rc = stack.mallocInt(1);
      ByteBuffer view =
          clEnqueueMapBuffer(
              mapQueues[b.device().index()].handle(),
              mem,
              true,
              CL_MAP_READ | CL_MAP_WRITE,
              0,
              b.size(),
              null,
              null,
              rc,
              null);
      ClErrors.check(rc.get(0), "clEnqueueMapBuffer(" + b + ")");
      return view;
    } catch (RuntimeException e) {
      b.enqueued();
      throw e;
    }
  }

  @Override
  public void unmap(DeviceBuffer buffer, ByteBuffer view) {
    ClBuffer b = ClBuffer.of(buffer, this);
    long queue = mapQueues[b.device().index()].handle();
    try {
      ClErrors.check(
          clEnqueueUnmapMemObject(queue, b.heldHandle(), view, null, null),
          "clEnqueueUnmapMemObject(" + b + ")");
      ClErrors.check(clFinish(queue), "clFinish");
    } finally {
      b.enqueued();
    }
  }

  /** Releases the map queues. */
  void release() {
    for (ClQueue queue : mapQueues) {
      queue.close();
    }
  }
}
