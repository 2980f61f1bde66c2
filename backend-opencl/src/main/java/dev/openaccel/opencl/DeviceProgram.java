package dev.openaccel.opencl;

import java.util.concurrent.ConcurrentHashMap;

/**
 * OpenCL C source compiled for every device of the backend; hands out its kernels by name. Programs
 * are cached per accelerator by source and options ({@code openaccel.opencl.program-cache}) and
 * released when the accelerator closes.
 *
 * <p>Owns: its {@code cl_program} and the kernels made from it (one per name). Thread-safe.
 */
public final class DeviceProgram {
  private final ClProgram program;
  private final LaunchTarget target;
  private final ConcurrentHashMap<String, DeviceKernel> kernels = new ConcurrentHashMap<>();

  DeviceProgram(ClProgram program, LaunchTarget target) {
    this.program = program;
    this.target = target;
  }

  /**
   * The kernel called {@code name}.
   *
   * @throws OpenClException {@code CL_INVALID_KERNEL_NAME (-46)} if the program has none
   * @throws IllegalStateException if the accelerator was closed
   */
  public DeviceKernel kernel(String name) {
    return program
        .context()
        .whileOpen(
            "create a kernel",
            () -> kernels.computeIfAbsent(name, n -> new DeviceKernel(program, n, target)));
  }

  void release() {
    kernels.values().forEach(DeviceKernel::release);
    kernels.clear();
    program.close();
  }
}
