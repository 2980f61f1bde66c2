package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Kernel;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.DeviceMemory;

/**
 * A Java kernel over buffers, as a capture keeps it: the body a replay runs, and what {@link
 * dev.openaccel.runtime.Graph#withBuffers} needs to run the same kernel over other buffers. It
 * holds no region between replays: a graph's buffers stay open while its replays run. Internal;
 * immutable.
 *
 * @param memory the backend's device memory, whose regions the kernel maps, or null for the
 *     engine's own
 */
record CapturedKernel(
    Kernel kernel,
    Stream stream,
    DeviceBuffer[] buffers,
    Block[] blocks,
    int[] sizes,
    DeviceMemory memory)
    implements WorkItem.Body {

  @Override
  public Object run() throws Exception {
    if (memory == null) {
      MemoryWork.run(kernel, stream, blocks, sizes);
    } else {
      MemoryWork.runMapped(kernel, stream, memory, blocks, sizes);
    }
    return null;
  }

  /**
   * The same kernel over {@code others}.
   *
   * @throws IllegalArgumentException unless {@code others} are as many as its buffers, each of the
   *     same size and device as the one it replaces
   * @throws IllegalStateException if one of them is closed
   */
  CapturedKernel over(ActorEngine engine, String node, DeviceBuffer[] others) {
    if (others.length != buffers.length) {
      throw new IllegalArgumentException(
          node + " runs over " + buffers.length + " buffers, got " + others.length);
    }
    Block[] rebound = new Block[others.length];
    for (int i = 0; i < others.length; i++) {
      Buffer other = engine.bufferOf(others[i]);
      if (other.size() != buffers[i].size() || !other.device().equals(buffers[i].device())) {
        throw new IllegalArgumentException(
            node
                + ": buffer "
                + i
                + " must be of "
                + buffers[i].size()
                + " bytes on "
                + buffers[i].device()
                + ", as the one it replaces; got "
                + other);
      }
      rebound[i] = other.block("launch a kernel on");
    }
    return new CapturedKernel(kernel, stream, others.clone(), rebound, sizes, memory);
  }
}
