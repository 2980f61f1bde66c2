package dev.openaccel.opencl;

import static org.lwjgl.opencl.CL10.CL_MAP_READ;
import static org.lwjgl.opencl.CL10.CL_MAP_WRITE;
import static org.lwjgl.opencl.CL10.clEnqueueMapBuffer;
import static org.lwjgl.opencl.CL10.clEnqueueUnmapMemObject;
import static org.lwjgl.opencl.CL10.clFinish;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.spi.DeviceMemory;
import dev.openaccel.runtime.spi.DeviceWork;
import java.nio.ByteBuffer;
import org.lwjgl.system.MemoryStack;

/**
 * The OpenCL backend's device memory: {@code cl_mem} regions for the engine's caching allocator,
 * copies as non-blocking commands, and mapped views for Java kernels. The engine decides when a
 * region is reserved, reused and given back, and keeps the statistics; OpenCL frees a released
 * {@code cl_mem} only after the commands using it finished.
 *
 * <p>Owns: the per-device map queues, used only by blocking map/unmap calls (OpenCL queues are
 * thread-safe). Stateless otherwise.
 */
final class ClDeviceMemory implements DeviceMemory {
  private final ClContext context;
  private final ClMemory memory;
  private final long[] capacity;
  private final ClQueue[] mapQueues;

  ClDeviceMemory(ClContext context, long limitPerDevice) {
    this.context = context;
    this.memory = new ClMemory(context);
    int devices = context.devices().size();
    this.capacity = new long[devices];
    this.mapQueues = new ClQueue[devices];
    for (int i = 0; i < devices; i++) {
      long global = context.device(i).globalMemory();
      capacity[i] = limitPerDevice > 0 ? Math.min(limitPerDevice, global) : global;
      mapQueues[i] = new ClQueue(context, i, false);
    }
  }

  @Override
  public long capacity(Device device) {
    return capacity[device.index()];
  }

  @Override
  public ClRegion reserve(Device device, long bytes) {
    return new ClRegion(this, device, bytes, memory.allocate(device.index(), bytes));
  }

  @Override
  public void release(Region region) {
    ClRegion.of(region, this).release();
  }

  /** Frees a region's {@code cl_mem} once neither the engine nor a command holds it. */
  void free(long mem) {
    memory.free(mem);
  }

  /** How many {@code cl_mem}s reserved here are not freed yet. */
  long liveBuffers() {
    return memory.live();
  }

  @Override
  public DeviceWork copyToDevice(ByteBuffer src, Region dst) {
    return new ClCopy.ToDevice(src, ClRegion.of(dst, this));
  }

  @Override
  public DeviceWork copyToHost(Region src, ByteBuffer dst) {
    return new ClCopy.ToHost(ClRegion.of(src, this), dst);
  }

  @Override
  public DeviceWork copy(Region src, Region dst, long bytes) {
    return new ClCopy.Between(ClRegion.of(src, this), ClRegion.of(dst, this), bytes);
  }

  /** A Java kernel's use of {@code region}, from its launch until it has unmapped it. */
  @Override
  public void hold(Region region) {
    ClRegion.of(region, this).acquire("launch a kernel on");
  }

  @Override
  public void unhold(Region region) {
    ClRegion.of(region, this).enqueued();
  }

  @Override
  public ByteBuffer map(Region region, long bytes) {
    ClRegion r = ClRegion.of(region, this);
    return r.mapShared(bytes, () -> mapBytes(r, r.heldHandle(), bytes));
  }

  /** Maps {@code bytes} of {@code r} for reading and writing (blocking, on its map queue). */
  private ByteBuffer mapBytes(ClRegion r, long mem, long bytes) {
    try (MemoryStack stack = MemoryStack.stackPush()) {
      var rc = stack.mallocInt(1);
      ByteBuffer view =
          clEnqueueMapBuffer(
              mapQueues[r.device().index()].handle(),
              mem,
              true,
              CL_MAP_READ | CL_MAP_WRITE,
              0,
              bytes,
              null,
              null,
              rc,
              null);
      ClErrors.check(rc.get(0), "clEnqueueMapBuffer(" + r + ")");
      return view;
    }
  }

  @Override
  public void unmap(Region region, ByteBuffer view) {
    ClRegion r = ClRegion.of(region, this);
    long queue = mapQueues[r.device().index()].handle();
    r.unmapShared(
        whole -> {
          ClErrors.check(
              clEnqueueUnmapMemObject(queue, r.heldHandle(), whole, null, null),
              "clEnqueueUnmapMemObject(" + r + ")");
          ClErrors.check(clFinish(queue), "clFinish");
        });
  }

  /** Releases the map queues. */
  void release() {
    for (ClQueue queue : mapQueues) {
      queue.close();
    }
  }
}
