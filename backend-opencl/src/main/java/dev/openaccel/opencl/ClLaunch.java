package dev.openaccel.opencl;

import static org.lwjgl.opencl.CL10.nclEnqueueNDRangeKernel;
import static org.lwjgl.opencl.CL10.nclSetKernelArg;

import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;

/**
 * A checked device-kernel launch: the kernel, its shape and its encoded arguments. Setting the
 * arguments and enqueuing is one step under the kernel's lock, since a {@code cl_kernel}'s
 * arguments are shared state and {@code clEnqueueNDRangeKernel} captures them.
 */
record ClLaunch(DeviceKernel kernel, String name, LaunchShape shape, KernelArguments args)
    implements ClWork {

  @Override
  public int enqueue(long queue, long eventAddress) {
    try (MemoryStack stack = MemoryStack.stackPush()) {
      long[] global = shape.global();
      long[] local = shape.local();
      PointerBuffer g = stack.mallocPointer(global.length).put(global).flip();
      PointerBuffer l =
          local.length == 0 ? null : stack.mallocPointer(local.length).put(local).flip();
      long value = stack.nmalloc(8, 8);
      synchronized (kernel) {
        long handle = kernel.handle();
        for (int i = 0; i < args.count(); i++) {
          MemoryUtil.memPutLong(value, args.bits(i));
          int rc = nclSetKernelArg(handle, i, args.size(i), args.isLocal(i) ? 0L : value);
          if (rc != 0) {
            throw new OpenClException(
                "clSetKernelArg("
                    + kernel.name()
                    + ", "
                    + i
                    + " "
                    + kernel.parameters().get(i)
                    + ")",
                rc);
          }
        }
        return nclEnqueueNDRangeKernel(
            queue,
            handle,
            global.length,
            0L,
            g.address(),
            l == null ? 0L : l.address(),
            0,
            0L,
            eventAddress);
      }
    }
  }

  @Override
  public void enqueued() {
    args.enqueued();
  }

  @Override
  public String toString() {
    return "launch of " + kernel.name() + " " + shape;
  }
}
