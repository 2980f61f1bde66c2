package dev.openaccel.opencl;

import static org.lwjgl.opencl.CL10.CL_CONTEXT_PLATFORM;
import static org.lwjgl.opencl.CL10.clCreateContext;
import static org.lwjgl.opencl.CL10.clReleaseContext;

import java.util.List;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;

/**
 * One {@code cl_context} over every selected device of a platform, so that a queue of one device
 * can wait for a marker of another on the device.
 *
 * <p>Owns: the context handle, released by {@link #close()} after every queue, program and buffer
 * made from it was released. Thread-safe: OpenCL contexts are.
 */
final class ClContext implements AutoCloseable {
  private final ClPlatforms.Found platform;
  private final long context;

  ClContext(ClPlatforms.Found platform) {
    this.platform = platform;
    try (MemoryStack stack = MemoryStack.stackPush()) {
      PointerBuffer properties =
          stack.mallocPointer(3).put(CL_CONTEXT_PLATFORM).put(platform.platform()).put(0).flip();
      PointerBuffer devices = stack.mallocPointer(platform.devices().size());
      platform.devices().forEach(d -> devices.put(d.id()));
      devices.flip();
      var rc = stack.mallocInt(1);
      this.context = clCreateContext(properties, devices, null, 0, rc);
      ClErrors.check(rc.get(0), "clCreateContext(" + platform.platformName() + ")");
    }
  }

  long handle() {
    return context;
  }

  String platformName() {
    return platform.platformName();
  }

  List<ClDevice> devices() {
    return platform.devices();
  }

  ClDevice device(int index) {
    return platform.devices().get(index);
  }

  @Override
  public void close() {
    clReleaseContext(context);
  }

  @Override
  public String toString() {
    return "ClContext(" + platform.platformName() + ", " + devices().size() + " devices)";
  }
}
