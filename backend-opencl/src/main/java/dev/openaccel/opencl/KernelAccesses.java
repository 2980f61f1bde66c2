package dev.openaccel.opencl;

import static org.lwjgl.opencl.CL12.CL_KERNEL_ARG_TYPE_CONST;

import dev.openaccel.runtime.DeviceBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * How a kernel uses the buffers bound to its pointer parameters, for the stream sanitizer: a {@code
 * __global} pointer to {@code const} data and a {@code __constant} pointer are read, every other
 * {@code __global} pointer is read and written. The compiler says which pointer points to {@code
 * const} ({@code CL_KERNEL_ARG_TYPE_QUALIFIER}, which every program's {@code -cl-kernel-arg-info}
 * build provides), so a {@code const} written through a macro or a typedef is seen as the compiler
 * sees it. A kernel that casts the {@code const} away and writes is still taken to only read.
 * Immutable.
 */
final class KernelAccesses {
  private final int[] reads; // the parameters whose buffers are only read
  private final int[] writes; // the parameters whose buffers may be written

  private KernelAccesses(List<Integer> reads, List<Integer> writes) {
    this.reads = reads.stream().mapToInt(Integer::intValue).toArray();
    this.writes = writes.stream().mapToInt(Integer::intValue).toArray();
  }

  /**
   * The accesses of {@code kernel} ({@code cl_kernel}) through its user's {@code parameters} (a
   * checked kernel's hidden ones are not among them).
   *
   * @throws OpenClException if OpenCL cannot say a parameter's qualifiers
   */
  static KernelAccesses of(long kernel, List<KernelParameter> parameters) {
    List<Integer> reads = new ArrayList<>();
    List<Integer> writes = new ArrayList<>();
    for (KernelParameter p : parameters) {
      switch (p.space()) {
        case CONSTANT -> reads.add(p.index());
        case GLOBAL ->
            ((ClProgram.typeQualifier(kernel, p.index()) & CL_KERNEL_ARG_TYPE_CONST) != 0
                    ? reads
                    : writes)
                .add(p.index());
        case LOCAL, PRIVATE -> {} // no buffer
      }
    }
    return new KernelAccesses(reads, writes);
  }

  /** The buffers {@code args} binds to parameters that are only read. */
  List<DeviceBuffer> reads(KernelArguments args) {
    return buffers(reads, args);
  }

  /** The buffers {@code args} binds to parameters that may be written. */
  List<DeviceBuffer> writes(KernelArguments args) {
    return buffers(writes, args);
  }

  private static List<DeviceBuffer> buffers(int[] indices, KernelArguments args) {
    List<DeviceBuffer> buffers = new ArrayList<>(indices.length);
    for (int index : indices) {
      buffers.add(args.buffer(index));
    }
    return buffers;
  }
}
