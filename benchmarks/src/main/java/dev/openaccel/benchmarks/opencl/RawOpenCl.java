package dev.openaccel.benchmarks.opencl;

import static org.lwjgl.opencl.CL10.CL_CONTEXT_PLATFORM;
import static org.lwjgl.opencl.CL10.CL_DEVICE_TYPE_ALL;
import static org.lwjgl.opencl.CL10.CL_QUEUE_PROFILING_ENABLE;
import static org.lwjgl.opencl.CL10.clBuildProgram;
import static org.lwjgl.opencl.CL10.clCreateCommandQueue;
import static org.lwjgl.opencl.CL10.clCreateContext;
import static org.lwjgl.opencl.CL10.clCreateKernel;
import static org.lwjgl.opencl.CL10.clCreateProgramWithSource;
import static org.lwjgl.opencl.CL10.clGetDeviceIDs;
import static org.lwjgl.opencl.CL10.clGetPlatformIDs;
import static org.lwjgl.opencl.CL10.clReleaseCommandQueue;
import static org.lwjgl.opencl.CL10.clReleaseContext;

import java.nio.IntBuffer;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.Configuration;
import org.lwjgl.system.MemoryStack;

/**
 * The raw-LWJGL baselines' OpenCL: the first platform's first device, one context, queues with
 * profiling, programs built from source. Plain LWJGL calls, no OpenAccel code, on purpose.
 */
final class RawOpenCl implements AutoCloseable {
  final long platform;
  final long device;
  final long context;

  RawOpenCl() {
    if (Configuration.OPENCL_LIBRARY_NAME.get() == null) {
      Configuration.OPENCL_LIBRARY_NAME.set("libOpenCL.so.1");
    }
    try (MemoryStack stack = MemoryStack.stackPush()) {
      PointerBuffer ids = stack.mallocPointer(1);
      check(clGetPlatformIDs(ids, (IntBuffer) null), "clGetPlatformIDs");
      platform = ids.get(0);
      check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, ids, (IntBuffer) null), "clGetDeviceIDs");
      device = ids.get(0);
      IntBuffer rc = stack.mallocInt(1);
      PointerBuffer properties =
          stack.mallocPointer(3).put(CL_CONTEXT_PLATFORM).put(platform).put(0).flip();
      context = clCreateContext(properties, device, null, 0, rc);
      check(rc.get(0), "clCreateContext");
    }
  }

  long newQueue() {
    try (MemoryStack stack = MemoryStack.stackPush()) {
      IntBuffer rc = stack.mallocInt(1);
      long queue = clCreateCommandQueue(context, device, CL_QUEUE_PROFILING_ENABLE, rc);
      check(rc.get(0), "clCreateCommandQueue");
      return queue;
    }
  }

  static void releaseQueue(long queue) {
    clReleaseCommandQueue(queue);
  }

  /** The kernel {@code name} of {@code source} built with {@code options}. */
  long kernel(String source, String options, String name) {
    try (MemoryStack stack = MemoryStack.stackPush()) {
      IntBuffer rc = stack.mallocInt(1);
      long program = clCreateProgramWithSource(context, source, rc);
      check(rc.get(0), "clCreateProgramWithSource");
      check(clBuildProgram(program, device, options, null, 0), "clBuildProgram");
      long kernel = clCreateKernel(program, name, rc);
      check(rc.get(0), "clCreateKernel");
      return kernel;
    }
  }

  static void check(int rc, String call) {
    if (rc != 0) {
      throw new IllegalStateException(call + " failed: " + rc);
    }
  }

  @Override
  public void close() {
    clReleaseContext(context);
  }
}
