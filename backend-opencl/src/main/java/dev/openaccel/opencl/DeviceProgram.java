package dev.openaccel.opencl;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * OpenCL C source compiled for every device of the backend; hands out its kernels by name. Programs
 * are cached per accelerator by source and options ({@code openaccel.opencl.program-cache}) and
 * released when the accelerator closes. A checked program ({@link ProgramOptions#checked}) was
 * built from its source rewritten so that its kernels check their accesses.
 *
 * <p>Owns: its {@code cl_program} and the kernels made from it (one per name). Thread-safe.
 */
public final class DeviceProgram {
  private final ClProgram program;
  private final LaunchTarget target;
  private final Map<String, KernelChecks> checks; // null: not checked
  private final ConcurrentHashMap<String, DeviceKernel> kernels = new ConcurrentHashMap<>();

  /**
   * @param checks what the checked build added to each kernel the source declares; null for a
   *     program built from the user's source as it is
   */
  DeviceProgram(ClProgram program, LaunchTarget target, Map<String, KernelChecks> checks) {
    this.program = program;
    this.target = target;
    this.checks = checks;
  }

  /** Whether its kernels check their accesses to {@code __global} arguments. */
  public boolean checked() {
    return checks != null;
  }

  /**
   * The kernel called {@code name}.
   *
   * @throws OpenClException {@code CL_INVALID_KERNEL_NAME (-46)} if the program has none
   * @throws IllegalArgumentException in a checked program, for a name that its source does not
   *     declare as a kernel itself (a kernel declared through a macro cannot be checked)
   * @throws IllegalStateException if the accelerator was closed
   */
  public DeviceKernel kernel(String name) {
    return program
        .context()
        .whileOpen(
            "create a kernel",
            () ->
                kernels.computeIfAbsent(
                    name, n -> new DeviceKernel(program, n, target, checks(n))));
  }

  private KernelChecks checks(String name) {
    if (checks == null) {
      return null;
    }
    KernelChecks kernel = checks.get(name);
    if (kernel == null) {
      throw new IllegalArgumentException(
          "checked program has no kernel "
              + name
              + " declared in its source (it declares "
              + checks.keySet()
              + "); a kernel declared through a macro cannot be checked");
    }
    return kernel;
  }

  /** The source OpenCL built the program from ({@code CL_PROGRAM_SOURCE}). */
  String builtSource() {
    return program.source();
  }

  void release() {
    kernels.values().forEach(DeviceKernel::release);
    kernels.clear();
    program.close();
  }
}
