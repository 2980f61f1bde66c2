package dev.openaccel.opencl;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.DeviceExecutor;
import dev.openaccel.runtime.spi.DeviceWork;
import dev.openaccel.runtime.trace.Tracer;
import java.util.List;

/**
 * The OpenCL backend's executor: an in-order {@link ClQueue} per stream, and for a graph's lanes
 * runs of device work fused into command buffers where the device has them ({@link
 * ClCommandBuffers}). Immutable; thread-safe.
 */
final class ClExecutor implements DeviceExecutor {
  private final ClContext context;
  private final boolean profiling;
  private final Tracer tracer;
  private final ClCommandBuffers commandBuffers;

  ClExecutor(ClContext context, boolean profiling, Tracer tracer, ClCommandBuffers commandBuffers) {
    this.context = context;
    this.profiling = profiling;
    this.tracer = tracer;
    this.commandBuffers = commandBuffers;
  }

  @Override
  public ClQueue open(Stream stream) {
    return new ClQueue(context, stream, profiling, tracer);
  }

  @Override
  public Fusion fuse(Device device, List<DeviceWork> templates) {
    return commandBuffers.fuse(device, templates);
  }

  @Override
  public String toString() {
    return "the opencl executor on " + context;
  }
}
