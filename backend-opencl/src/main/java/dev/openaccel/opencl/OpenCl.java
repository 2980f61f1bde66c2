package dev.openaccel.opencl;

import dev.openaccel.runtime.Accelerator;
import java.util.List;
import java.util.Optional;

/**
 * The OpenCL backend of an {@link Accelerator}: compiles device programs and says which platform
 * and devices it uses.
 *
 * <pre>{@code
 * OpenCl opencl = OpenCl.get(accelerator);
 * DeviceKernel scale = opencl.compile("""
 *     __kernel void scale(float a, __global float* x) { x[get_global_id(0)] *= a; }
 *     """).kernel("scale");
 * scale.launch(stream, LaunchShape.of(n), 2.0f, buffer);
 * }</pre>
 *
 * This class is thread-safe.
 */
public final class OpenCl {
  private final OpenClBackend backend;

  private OpenCl(OpenClBackend backend) {
    this.backend = backend;
  }

  /**
   * The OpenCL backend of {@code accelerator}.
   *
   * @throws IllegalArgumentException if the accelerator has no opencl backend on its class path
   */
  public static OpenCl get(Accelerator accelerator) {
    OpenClBackend backend = OpenClSystem.of(accelerator.system()).backend();
    if (backend == null || !accelerator.deviceTypes().contains(OpenClProvider.TYPE)) {
      throw new IllegalArgumentException(
          "no backend for device type opencl in this accelerator (found "
              + accelerator.deviceTypes()
              + ")");
    }
    return new OpenCl(backend);
  }

  /** Why the backend has no devices (no OpenCL library or platform), or empty if it has. */
  public Optional<String> unavailableReason() {
    return backend.unavailableReason();
  }

  /** The selected platform's name. */
  public String platformName() {
    return backend.context().platformName();
  }

  /** The names of the backend's devices, by device index. */
  public List<String> deviceNames() {
    return backend.devices().stream().map(ClDevice::name).toList();
  }

  List<ClDevice> devices() {
    return backend.devices();
  }

  /** {@link #compile(String, ProgramOptions)} without options of its own, checked as configured. */
  public DeviceProgram compile(String source) {
    return compile(source, ProgramOptions.defaults());
  }

  /**
   * {@link #compile(String, ProgramOptions)} with the build options {@code options}, checked as
   * {@code openaccel.opencl.checked-kernels} says.
   */
  public DeviceProgram compile(String source, String options) {
    return compile(source, ProgramOptions.of(options));
  }

  /**
   * Compiles OpenCL C {@code source} for every device with {@code options}, or returns the cached
   * program. A checked program ({@link ProgramOptions#checked}) is built from the source rewritten
   * to check every access to a {@code __global} pointer parameter.
   *
   * @throws OpenClException ({@code CL_BUILD_PROGRAM_FAILURE (-11)}) with the full build log
   * @throws IllegalArgumentException for a checked program whose kernels use a {@code __global}
   *     pointer parameter other than as {@code p[index]}, naming the kernel, the parameter and the
   *     line
   * @throws IllegalStateException if the backend has no devices
   */
  public DeviceProgram compile(String source, ProgramOptions options) {
    return backend.programs().compile(source, options);
  }
}
