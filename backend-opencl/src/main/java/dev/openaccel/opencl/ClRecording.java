package dev.openaccel.opencl;

import static org.lwjgl.opencl.CL10.clReleaseKernel;
import static org.lwjgl.opencl.CL10.nclSetKernelArg;
import static org.lwjgl.opencl.KHRCommandBuffer.CL_COMMAND_BUFFER_FLAGS_KHR;
import static org.lwjgl.opencl.KHRCommandBuffer.CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR;
import static org.lwjgl.opencl.KHRCommandBuffer.clFinalizeCommandBufferKHR;
import static org.lwjgl.opencl.KHRCommandBuffer.clReleaseCommandBufferKHR;
import static org.lwjgl.opencl.KHRCommandBuffer.nclCommandCopyBufferKHR;
import static org.lwjgl.opencl.KHRCommandBuffer.nclCommandNDRangeKernelKHR;
import static org.lwjgl.opencl.KHRCommandBuffer.nclCreateCommandBufferKHR;

import java.util.List;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;

/**
 * The command buffer of one {@link ClFusedRun}, recorded on the queue of its first replay and
 * enqueued by every replay after it, on any queue of the device (a queue of the same device and
 * properties replaces the recording one at the enqueue, which 0.9.0 to 0.9.4 of the extension
 * allow), with simultaneous use: replays overlap. Its commands run in the order recorded, as on the
 * in-order queue it was recorded for (no sync points).
 *
 * <p>Each launch is recorded with a kernel object of its own ({@link
 * DeviceKernel#newKernelObject}), whose arguments are set once and never again: PoCL 3.1 replays a
 * recorded launch with its kernel's arguments as they are when the command buffer is enqueued, not
 * as they were recorded, and the kernel's launches set its shared object's arguments all the time.
 *
 * <p>Owns: the command buffer and the kernel copies, made by the first replay's enqueue (on its
 * stream's actor) and released once by {@link #release}; guarded by this object's monitor.
 */
final class ClRecording {
  private final ClCommandBuffers owner;
  private final List<ClWork> steps; // templates: unchecked ClLaunch or ClCopy.Between
  private final long[] kernels; // by step: the launch's own kernel object, 0 for a copy or unmade
  private long buffer; // 0 until recorded
  private boolean released;

  ClRecording(ClCommandBuffers owner, List<ClWork> steps) {
    this.owner = owner;
    this.steps = List.copyOf(steps);
    this.kernels = new long[steps.size()];
  }

  /**
   * The command buffer, recorded on {@code queue} if it was not yet. The caller holds a use of
   * every buffer the steps name (a replica of each), so each {@code cl_mem} recorded is live.
   *
   * @throws OpenClException if OpenCL refuses to record it, naming the call and the kernel, or if
   *     it was released (the backend closed)
   */
  synchronized long buffer(long queue) {
    if (released) {
      throw new OpenClException(
          "clEnqueueCommandBufferKHR", ClErrors.INVALID_COMMAND_BUFFER, ": the backend is closed");
    }
    if (buffer == 0) {
      buffer = record(queue);
    }
    return buffer;
  }

  private long record(long queue) {
    try (MemoryStack stack = MemoryStack.stackPush()) {
      var rc = stack.mallocInt(1);
      long properties =
          MemoryUtil.memAddress(
              stack.longs(CL_COMMAND_BUFFER_FLAGS_KHR, CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR, 0));
      long made =
          nclCreateCommandBufferKHR(
              1,
              MemoryUtil.memAddress(stack.pointers(queue)),
              properties,
              MemoryUtil.memAddress(rc));
      ClErrors.check(rc.get(0), "clCreateCommandBufferKHR");
      owner.counted(1);
      try {
        for (int i = 0; i < steps.size(); i++) {
          recordStep(made, i, stack);
        }
        ClErrors.check(clFinalizeCommandBufferKHR(made), "clFinalizeCommandBufferKHR");
      } catch (RuntimeException e) {
        clReleaseCommandBufferKHR(made);
        owner.counted(-1);
        throw e;
      }
      return made;
    }
  }

  private void recordStep(long made, int i, MemoryStack stack) {
    if (steps.get(i) instanceof ClCopy.Between copy) {
      ClErrors.check(
          nclCommandCopyBufferKHR(
              made, 0, copy.mems[0], copy.mems[1], 0, 0, copy.length(), 0, 0, 0, 0),
          "clCommandCopyBufferKHR(" + copy.length() + " bytes)");
      return;
    }
    ClLaunch launch = (ClLaunch) steps.get(i);
    if (kernels[i] == 0) {
      kernels[i] = kernelWith(launch);
    }
    LaunchShape shape = launch.shape();
    ClErrors.check(
        nclCommandNDRangeKernelKHR(
            made,
            0,
            0,
            kernels[i],
            shape.dimensions(),
            0,
            shape.global(stack),
            shape.local(stack),
            0,
            0,
            0,
            0),
        "clCommandNDRangeKernelKHR(" + launch.name() + ")");
  }

  /** A kernel object of {@code launch}'s kernel with its arguments set; counted. */
  private long kernelWith(ClLaunch launch) {
    long kernel = launch.kernel().newKernelObject();
    owner.counted(1);
    KernelArguments args = launch.args();
    try (MemoryStack stack = MemoryStack.stackPush()) {
      long value = stack.nmalloc(8, 8);
      for (int i = 0; i < args.count(); i++) {
        MemoryUtil.memPutLong(value, args.bits(i));
        ClErrors.check(
            nclSetKernelArg(kernel, i, args.size(i), args.isLocal(i) ? 0L : value),
            "clSetKernelArg(" + launch.name() + ", " + i + ")");
      }
    } catch (RuntimeException e) {
      clReleaseKernel(kernel);
      owner.counted(-1);
      throw e;
    }
    return kernel;
  }

  /** Counts a native object of a replay of it made (+1) or released (-1), with the backend's. */
  void counted(int change) {
    owner.counted(change);
  }

  /**
   * Releases the command buffer and the kernel copies; later calls do nothing. Enqueues still
   * pending keep what they need: OpenCL retains a command buffer while it is pending.
   */
  synchronized void release() {
    if (released) {
      return;
    }
    released = true;
    if (buffer != 0) {
      clReleaseCommandBufferKHR(buffer);
      owner.counted(-1);
    }
    for (long kernel : kernels) {
      if (kernel != 0) {
        clReleaseKernel(kernel);
        owner.counted(-1);
      }
    }
  }
}
