package dev.openaccel.opencl;

import static org.lwjgl.opencl.CL10.CL_KERNEL_LOCAL_MEM_SIZE;
import static org.lwjgl.opencl.CL10.clGetKernelWorkGroupInfo;

import dev.openaccel.runtime.Stream;
import org.lwjgl.system.MemoryStack;

/**
 * The {@code __local} memory a kernel declares itself on each device of its context, and the check
 * that a launch's {@link LocalMemory} arguments fit beside it. Immutable; thread-safe.
 */
final class KernelLocalMemory {
  private final ClContext context;
  private final String name;
  private final long[] own; // by device index

  /** Queries {@code kernel} ({@code name}), before any of its local arguments is set. */
  KernelLocalMemory(ClContext context, long kernel, String name) {
    this.context = context;
    this.name = name;
    this.own = new long[context.devices().size()];
    for (int i = 0; i < own.length; i++) {
      own[i] = size(kernel, context.device(i));
    }
  }

  /**
   * Checks that {@code stream}'s device has {@code bytes} of local memory for the arguments beside
   * the kernel's own (PoCL aborts the process on a launch that asks for more; other platforms fail
   * it).
   *
   * @throws IllegalArgumentException naming the kernel, the bytes and the device's local memory
   */
  void require(Stream stream, long bytes) {
    int index = stream.deviceIndex();
    if (bytes == 0 || !stream.device().type().equals(OpenClProvider.TYPE) || index >= own.length) {
      return; // a stream of another backend or accelerator is refused by the enqueue
    }
    ClDevice device = context.device(index);
    long mine = own[index];
    if (mine + bytes > device.localMemory()) {
      throw new IllegalArgumentException(
          "kernel "
              + name
              + " asks for "
              + bytes
              + " bytes of local memory"
              + (mine == 0 ? "" : " beside its own " + mine)
              + ", "
              + stream.device()
              + " ("
              + device.name()
              + ") has "
              + device.localMemory());
    }
  }

  /** {@code CL_KERNEL_LOCAL_MEM_SIZE} on {@code device}: before local arguments, its own. */
  private static long size(long kernel, ClDevice device) {
    try (MemoryStack stack = MemoryStack.stackPush()) {
      var size = stack.mallocLong(1);
      ClErrors.check(
          clGetKernelWorkGroupInfo(kernel, device.id(), CL_KERNEL_LOCAL_MEM_SIZE, size, null),
          "clGetKernelWorkGroupInfo(CL_KERNEL_LOCAL_MEM_SIZE)");
      return size.get(0);
    }
  }
}
