package dev.openaccel.opencl;

import static org.lwjgl.opencl.CL10.CL_PROGRAM_BUILD_LOG;
import static org.lwjgl.opencl.CL10.CL_PROGRAM_SOURCE;
import static org.lwjgl.opencl.CL10.clBuildProgram;
import static org.lwjgl.opencl.CL10.clCreateKernel;
import static org.lwjgl.opencl.CL10.clCreateProgramWithSource;
import static org.lwjgl.opencl.CL10.clGetProgramBuildInfo;
import static org.lwjgl.opencl.CL10.clGetProgramInfo;
import static org.lwjgl.opencl.CL10.clReleaseProgram;
import static org.lwjgl.opencl.CL12.CL_KERNEL_ARG_ADDRESS_CONSTANT;
import static org.lwjgl.opencl.CL12.CL_KERNEL_ARG_ADDRESS_GLOBAL;
import static org.lwjgl.opencl.CL12.CL_KERNEL_ARG_ADDRESS_LOCAL;
import static org.lwjgl.opencl.CL12.CL_KERNEL_ARG_ADDRESS_QUALIFIER;
import static org.lwjgl.opencl.CL12.CL_KERNEL_ARG_NAME;
import static org.lwjgl.opencl.CL12.CL_KERNEL_ARG_TYPE_NAME;
import static org.lwjgl.opencl.CL12.CL_KERNEL_ARG_TYPE_QUALIFIER;
import static org.lwjgl.opencl.CL12.clGetKernelArgInfo;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;

/**
 * A {@code cl_program} built from OpenCL C source for every device of a context, with the kernel
 * parameter info the launch checks need ({@code -cl-kernel-arg-info}).
 *
 * <p>Owns: the program handle, released by {@link #close()}. Thread-safe once built.
 */
final class ClProgram implements AutoCloseable {
  private final ClContext context;
  private final long program;

  /**
   * Builds {@code source} with {@code options}.
   *
   * @throws OpenClException with the full build log of every device when the build fails
   */
  ClProgram(ClContext context, String source, String options) {
    this.context = context;
    try (MemoryStack stack = MemoryStack.stackPush()) {
      var rc = stack.mallocInt(1);
      program = clCreateProgramWithSource(context.handle(), source, rc);
      ClErrors.check(rc.get(0), "clCreateProgramWithSource");
    }
    int rc =
        clBuildProgram(program, (PointerBuffer) null, options + " -cl-kernel-arg-info", null, 0);
    if (rc != 0) {
      String log = buildLogs();
      clReleaseProgram(program);
      throw new OpenClException("clBuildProgram", rc, log);
    }
  }

  ClContext context() {
    return context;
  }

  /** A new {@code cl_kernel} of this program; the caller owns it. */
  long createKernel(String name) {
    try (MemoryStack stack = MemoryStack.stackPush()) {
      var rc = stack.mallocInt(1);
      long kernel = clCreateKernel(program, name, rc);
      ClErrors.check(rc.get(0), "clCreateKernel(" + name + ")");
      return kernel;
    }
  }

  /** The source the program was built from, as OpenCL reports it ({@code CL_PROGRAM_SOURCE}). */
  String source() {
    try (MemoryStack stack = MemoryStack.stackPush()) {
      PointerBuffer size = stack.mallocPointer(1);
      ClErrors.check(
          clGetProgramInfo(program, CL_PROGRAM_SOURCE, (ByteBuffer) null, size),
          "clGetProgramInfo");
      ByteBuffer source = MemoryUtil.memAlloc((int) Math.max(1, size.get(0)));
      try {
        ClErrors.check(
            clGetProgramInfo(program, CL_PROGRAM_SOURCE, source, null), "clGetProgramInfo");
        return ClInfo.decodeExactly(source);
      } finally {
        MemoryUtil.memFree(source);
      }
    }
  }

  /** The parameters of {@code kernel}, from the compiler's argument info. */
  static List<KernelParameter> parameters(long kernel, int count) {
    List<KernelParameter> result = new ArrayList<>(count);
    try (MemoryStack stack = MemoryStack.stackPush()) {
      var qualifier = stack.mallocInt(1);
      for (int i = 0; i < count; i++) {
        ClErrors.check(
            clGetKernelArgInfo(kernel, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, qualifier, null),
            "clGetKernelArgInfo");
        result.add(
            new KernelParameter(
                i,
                space(qualifier.get(0)),
                argString(kernel, i, CL_KERNEL_ARG_TYPE_NAME),
                argString(kernel, i, CL_KERNEL_ARG_NAME)));
      }
    }
    return List.copyOf(result);
  }

  /**
   * The type qualifiers of {@code kernel}'s argument {@code index} ({@code
   * CL_KERNEL_ARG_TYPE_QUALIFIER}, a {@code cl_bitfield}): for a pointer, {@code
   * CL_KERNEL_ARG_TYPE_CONST} when what it points to is declared {@code const}.
   */
  static long typeQualifier(long kernel, int index) {
    try (MemoryStack stack = MemoryStack.stackPush()) {
      var qualifier = stack.mallocLong(1);
      ClErrors.check(
          clGetKernelArgInfo(kernel, index, CL_KERNEL_ARG_TYPE_QUALIFIER, qualifier, null),
          "clGetKernelArgInfo(CL_KERNEL_ARG_TYPE_QUALIFIER)");
      return qualifier.get(0);
    }
  }

  private static KernelParameter.Space space(int qualifier) {
    return switch (qualifier) {
      case CL_KERNEL_ARG_ADDRESS_GLOBAL -> KernelParameter.Space.GLOBAL;
      case CL_KERNEL_ARG_ADDRESS_CONSTANT -> KernelParameter.Space.CONSTANT;
      case CL_KERNEL_ARG_ADDRESS_LOCAL -> KernelParameter.Space.LOCAL;
      default -> KernelParameter.Space.PRIVATE;
    };
  }

  private static String argString(long kernel, int index, int param) {
    try (MemoryStack stack = MemoryStack.stackPush()) {
      PointerBuffer size = stack.mallocPointer(1);
      ClErrors.check(
          clGetKernelArgInfo(kernel, index, param, (ByteBuffer) null, size), "clGetKernelArgInfo");
      ByteBuffer value = stack.malloc((int) size.get(0));
      ClErrors.check(clGetKernelArgInfo(kernel, index, param, value, null), "clGetKernelArgInfo");
      return ClInfo.decode(value);
    }
  }

  private String buildLogs() {
    StringBuilder logs = new StringBuilder();
    for (ClDevice device : context.devices()) {
      try (MemoryStack stack = MemoryStack.stackPush()) {
        PointerBuffer size = stack.mallocPointer(1);
        if (clGetProgramBuildInfo(
                program, device.id(), CL_PROGRAM_BUILD_LOG, (ByteBuffer) null, size)
            != 0) {
          continue;
        }
        ByteBuffer log = MemoryUtil.memAlloc((int) Math.max(1, size.get(0)));
        try {
          clGetProgramBuildInfo(program, device.id(), CL_PROGRAM_BUILD_LOG, log, null);
          logs.append("\nbuild log of ")
              .append(device.name())
              .append(":\n")
              .append(ClInfo.decode(log));
        } finally {
          MemoryUtil.memFree(log);
        }
      }
    }
    return logs.toString();
  }

  @Override
  public void close() {
    clReleaseProgram(program);
  }
}
