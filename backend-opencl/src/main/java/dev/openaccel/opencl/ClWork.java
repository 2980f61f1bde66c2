package dev.openaccel.opencl;

import dev.openaccel.runtime.DeviceBuffer;
import java.util.function.ToLongFunction;
import org.lwjgl.PointerBuffer;

/**
 * One OpenCL command a stream puts on its queue: a kernel launch or a copy. Enqueued on the
 * stream's thread, in stream order.
 */
interface ClWork {

  /**
   * Enqueues the command on {@code queue}, storing its event in {@code event}; {@code memory} gives
   * the {@code cl_mem} of each buffer it names.
   *
   * @return the OpenCL error code, 0 on success
   */
  int enqueue(long queue, PointerBuffer event, ToLongFunction<DeviceBuffer> memory);

  /** The call or kernel name, for errors and traces. */
  String name();

  /** The buffers the command reads or writes. */
  java.util.List<DeviceBuffer> buffers();
}
