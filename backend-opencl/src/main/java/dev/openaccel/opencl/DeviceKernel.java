package dev.openaccel.opencl;

import static org.lwjgl.opencl.CL10.CL_KERNEL_NUM_ARGS;
import static org.lwjgl.opencl.CL10.CL_KERNEL_WORK_GROUP_SIZE;
import static org.lwjgl.opencl.CL10.clGetKernelInfo;
import static org.lwjgl.opencl.CL10.clGetKernelWorkGroupInfo;
import static org.lwjgl.opencl.CL10.clReleaseKernel;
import static org.lwjgl.opencl.CL10.nclEnqueueNDRangeKernel;
import static org.lwjgl.opencl.CL10.nclSetKernelArg;

import dev.openaccel.runtime.Stream;
import java.util.List;
import java.util.Objects;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;

/**
 * A compiled device kernel: launch it on a stream with a {@link LaunchShape} and its arguments.
 *
 * <pre>{@code
 * DeviceKernel saxpy = OpenCl.get(accelerator).compile(SOURCE).kernel("saxpy");
 * saxpy.launch(stream, LaunchShape.of(n), 2.0f, x, y);   // float a, __global float* x, y
 * }</pre>
 *
 * <p>Arguments, in parameter order: a {@link dev.openaccel.runtime.DeviceBuffer} of this backend
 * for a {@code __global}/{@code __constant} pointer, a {@link LocalMemory} for a {@code __local}
 * pointer, and for a value the boxed Java type of its size ({@code char}/{@code uchar}: Byte,
 * {@code short}: Short, {@code int}/{@code uint}: Integer, {@code long}/{@code ulong}: Long, {@code
 * float}: Float, {@code double}: Double). A wrong count or type throws {@link
 * IllegalArgumentException} at the call, naming the parameter and the value. The launch runs in
 * stream order like any kernel; a failure to enqueue it (e.g. {@code CL_INVALID_WORK_GROUP_SIZE
 * (-54)}) fails the stream's work and surfaces as a {@link
 * dev.openaccel.runtime.DeviceExecutionException} at the next covering sync point. A kernel of a
 * checked program ({@link ProgramOptions#checked}) also fails there with a {@link
 * KernelBoundsException} when it accessed a {@code __global} argument out of bounds.
 *
 * <p>Owns: its {@code cl_kernel}, whose argument slots are set and enqueued under this object's
 * monitor (a launch's arguments are shared state until {@code clEnqueueNDRangeKernel} captures
 * them), and what each slot was last set to, under the same monitor. This class is thread-safe.
 */
public final class DeviceKernel {
  private final ClContext context;
  private final ClProgram program;
  private final String name;
  private final long kernel;
  private final List<KernelParameter> parameters; // the user's: no hidden ones
  private final KernelChecks checks; // null: not checked
  private final KernelAccesses accesses; // for the stream sanitizer
  private final LaunchTarget target;
  private final KernelLocalMemory localMemory; // its own __local variables, on each device
  private final Slot[] slots; // what each argument slot holds; null: not set (or a set failed)

  /**
   * What an argument slot was set to: the value's bits, its buffer's region (compared by identity:
   * a freed {@code cl_mem}'s handle value comes back for a new buffer) and its size.
   */
  private record Slot(long bits, ClRegion region, int size) {
    boolean holds(long otherBits, ClRegion otherRegion, int otherSize) {
      return bits == otherBits && region == otherRegion && size == otherSize;
    }
  }

  /** The kernel {@code name} of {@code program}, not checked. */
  DeviceKernel(ClProgram program, String name, LaunchTarget target) {
    this(program, name, target, null);
  }

  /**
   * The kernel {@code name} of {@code program}, whose hidden parameters {@code checks} describes
   * (null for an unchecked kernel).
   *
   * @throws IllegalArgumentException if the compiler's parameters do not match {@code checks}
   */
  DeviceKernel(ClProgram program, String name, LaunchTarget target, KernelChecks checks) {
    this.context = program.context();
    this.program = program;
    this.name = Objects.requireNonNull(name, "name");
    this.kernel = program.createKernel(name);
    this.target = target;
    this.checks = checks;
    List<KernelParameter> all;
    try (MemoryStack stack = MemoryStack.stackPush()) {
      var count = stack.mallocInt(1);
      ClErrors.check(
          clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, count, null),
          "clGetKernelInfo(" + name + ")");
      all = ClProgram.parameters(kernel, count.get(0));
      this.parameters = checks == null ? all : checks.userParameters(all);
      this.accesses = KernelAccesses.of(kernel, parameters);
    } catch (RuntimeException e) {
      clReleaseKernel(kernel);
      throw e;
    }
    this.localMemory = new KernelLocalMemory(context, kernel, name); // before a local argument
    this.slots = new Slot[all.size()];
  }

  /** The kernel's function name in its program. */
  public String name() {
    return name;
  }

  /** The kernel's parameters, in order (a checked kernel's hidden ones are not among them). */
  public List<KernelParameter> parameters() {
    return parameters;
  }

  /** Whether launches check the kernel's accesses to its {@code __global} arguments. */
  public boolean checked() {
    return checks != null;
  }

  /**
   * Enqueues this kernel on {@code stream} over {@code shape} with {@code args}.
   *
   * @throws IllegalArgumentException if the arguments do not match {@link #parameters()}, a buffer
   *     is not of this backend, the {@link LocalMemory} arguments ask for more than the device's
   *     local memory, or {@code stream} is not an OpenCL stream
   * @throws IllegalStateException if a buffer is closed, or the accelerator (for a checked kernel)
   * @throws OpenClException if OpenCL cannot make a checked kernel's error buffer
   * @throws dev.openaccel.runtime.UnsynchronizedAccessException at {@code openaccel.sanitizer =
   *     throw}, if a buffer argument's access races ({@link KernelAccesses}); nothing is enqueued
   */
  public void launch(Stream stream, LaunchShape shape, Object... args) {
    launch(stream, name, shape, args);
  }

  /**
   * {@link #launch(Stream, LaunchShape, Object...)} under the name {@code launchName}, which traces
   * and failures report (e.g. one name per tile of a tiled algorithm).
   */
  public void launch(Stream stream, String launchName, LaunchShape shape, Object... args) {
    Objects.requireNonNull(stream, "stream");
    Objects.requireNonNull(launchName, "launchName");
    Objects.requireNonNull(shape, "shape");
    KernelArguments encoded = encode(args);
    ClLaunch launch;
    try {
      localMemory.require(stream, encoded.localBytes());
      launch = new ClLaunch(this, launchName, shape, encoded, newCheck());
    } catch (RuntimeException e) {
      encoded.enqueued();
      throw e;
    }
    // The engine's from here: it gives the uses back, also if it refuses the launch.
    target.enqueue(stream, launch);
  }

  /**
   * {@code args} checked against the parameters and encoded, each buffer's region with a use taken.
   *
   * @throws IllegalArgumentException if they do not match, naming the parameter and the value
   * @throws IllegalStateException if a buffer is closed
   */
  KernelArguments encode(Object[] args) {
    return KernelArguments.encode(name, parameters, args, target);
  }

  /**
   * The bounds check of one launch: a new error buffer, or null for a kernel that is not checked.
   *
   * @throws IllegalStateException if the backend was closed
   */
  ClBoundsCheck newCheck() {
    return checks == null || checks.hidden() == 0 ? null : ClBoundsCheck.create(context);
  }

  /**
   * A new {@code cl_kernel} of this kernel, whose arguments nothing but its caller sets; the caller
   * releases it.
   *
   * @throws OpenClException if OpenCL cannot make it
   */
  long newKernelObject() {
    return program.createKernel(name);
  }

  /**
   * Sets {@code args} and enqueues this kernel on {@code queue}, one step under this object's
   * monitor. A slot that already holds the same value is not set again: a launch repeated with the
   * same arguments calls only {@code clEnqueueNDRangeKernel} ({@code clSetKernelArg} cost about 1
   * µs per launch on NVIDIA's platform). A buffer's slot is the same only for the same region, not
   * merely the same {@code cl_mem} handle: a released buffer's handle value may come back for a new
   * one, which a driver may know by another device address.
   *
   * <p>With a {@code check}, the hidden arguments follow (each checked buffer's size, then the
   * error buffer, set every time: it is new per launch), and the read of the error buffer behind
   * the kernel gets the event at {@code eventAddress}.
   *
   * @return the error code of {@code clEnqueueNDRangeKernel} (or of the read), 0 on success
   * @throws OpenClException if an argument cannot be set
   */
  synchronized int enqueue(
      long queue, LaunchShape shape, KernelArguments args, ClBoundsCheck check, long eventAddress) {
    try (MemoryStack stack = MemoryStack.stackPush()) {
      long value = stack.nmalloc(8, 8);
      for (int i = 0; i < args.count(); i++) {
        // bits are 0 for local memory, which only a size describes
        set(value, i, args.bits(i), args.region(i), args.size(i), args.isLocal(i));
      }
      if (check != null) {
        int hidden = args.count();
        for (int index : checks.checked()) {
          set(value, hidden++, args.bufferSize(index), null, Long.BYTES, false);
        }
        slots[hidden] = null;
        set(value, hidden, check.errorBuffer(), null, Long.BYTES, false);
      }
      int rc =
          nclEnqueueNDRangeKernel(
              queue,
              kernel,
              shape.dimensions(),
              0L,
              shape.global(stack),
              shape.local(stack),
              0,
              0L,
              check == null ? eventAddress : check.kernelEventAddress());
      return check == null || rc != 0 ? rc : check.readBack(queue, eventAddress);
    }
  }

  /** Sets argument slot {@code i} unless it holds that already; {@code value} is scratch. */
  private void set(long value, int i, long bits, ClRegion region, int size, boolean local) {
    Slot slot = slots[i];
    if (slot != null && slot.holds(bits, region, size)) {
      return;
    }
    slots[i] = null;
    MemoryUtil.memPutLong(value, bits);
    int rc = nclSetKernelArg(kernel, i, size, local ? 0L : value);
    if (rc != 0) {
      String what = i < parameters.size() ? parameters.get(i).toString() : "a hidden argument";
      throw new OpenClException("clSetKernelArg(" + name + ", " + i + " " + what + ")", rc);
    }
    slots[i] = new Slot(bits, region, size);
  }

  /**
   * {@code CL_KERNEL_WORK_GROUP_SIZE} on {@code device}: the largest work-group this kernel can run
   * there, given its registers and local memory.
   */
  long workGroupSize(ClDevice device) {
    return context.whileOpen(
        "query a kernel",
        () -> {
          try (MemoryStack stack = MemoryStack.stackPush()) {
            PointerBuffer size = stack.mallocPointer(1);
            ClErrors.check(
                clGetKernelWorkGroupInfo(
                    kernel, device.id(), CL_KERNEL_WORK_GROUP_SIZE, size, null),
                "clGetKernelWorkGroupInfo(" + name + ")");
            return size.get(0);
          }
        });
  }

  /** Which of its buffer arguments the kernel only reads, and which it may write. */
  KernelAccesses accesses() {
    return accesses;
  }

  /** Releases the {@code cl_kernel}; only when no launch can still be enqueued. */
  void release() {
    clReleaseKernel(kernel);
  }

  @Override
  public String toString() {
    return "DeviceKernel(" + name + parameters + ")";
  }
}
