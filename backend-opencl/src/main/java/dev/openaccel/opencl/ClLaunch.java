package dev.openaccel.opencl;

import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.spi.DeviceWork;
import java.util.List;

/**
 * A checked device-kernel launch: the kernel, its shape and its encoded arguments, and for a kernel
 * of a checked program the bounds check of this launch (else null). It declares the buffers it
 * reads and writes ({@link KernelAccesses}) to the stream sanitizer. Captured into a graph it is a
 * template ({@link DeviceWork#replica}): it gave its uses and its bounds check back, and each
 * replay enqueues a replica with uses and a bounds check of its own.
 */
record ClLaunch(
    DeviceKernel kernel, String name, LaunchShape shape, KernelArguments args, ClBoundsCheck check)
    implements ClWork {

  /** A launch of a kernel whose accesses are not checked. */
  ClLaunch(DeviceKernel kernel, String name, LaunchShape shape, KernelArguments args) {
    this(kernel, name, shape, args, null);
  }

  @Override
  public int enqueue(long queue, long eventAddress) {
    return kernel.enqueue(queue, shape, args, check, eventAddress);
  }

  @Override
  public void enqueued() {
    args.enqueued();
  }

  @Override
  public long spanStart(long event) {
    return check == null ? event : check.spanStart(event);
  }

  @Override
  public RuntimeException failureOnDevice() {
    return check == null ? null : check.failure(kernel, name);
  }

  @Override
  public void ended(boolean completed) {
    if (check != null) {
      check.release();
    }
  }

  /**
   * The same launch with uses of its buffers and (for a checked kernel) a bounds check of its own.
   *
   * @throws IllegalStateException if a buffer's memory went back to the device, or the backend is
   *     closed
   */
  @Override
  public ClLaunch replica() {
    KernelArguments retaken = args.retaken();
    try {
      return new ClLaunch(kernel, name, shape, retaken, kernel.newCheck());
    } catch (RuntimeException e) {
      retaken.enqueued();
      throw e;
    }
  }

  /**
   * A template of this launch with {@code arguments}: as many, each a value of its parameter's
   * type, each buffer of the size and device of the one it replaces and each {@link LocalMemory} of
   * the same size (the launch's local memory was checked against the device when it was captured).
   *
   * @throws IllegalArgumentException naming the argument, what it must be and what it got
   * @throws IllegalStateException if a buffer is closed
   */
  @Override
  public ClLaunch withArguments(Object... arguments) {
    KernelArguments updated = kernel.encode(arguments);
    try {
      for (int i = 0; i < args.count(); i++) {
        requireSameShape(i, updated, arguments[i]);
      }
    } finally {
      updated.enqueued(); // a template holds no use: each replica takes its own
    }
    return new ClLaunch(kernel, name, shape, updated, null);
  }

  private void requireSameShape(int i, KernelArguments updated, Object argument) {
    DeviceBuffer captured = args.buffer(i);
    String expected = null;
    if (captured != null) {
      DeviceBuffer given = updated.buffer(i);
      if (given.size() != captured.size() || !given.device().equals(captured.device())) {
        expected = "a buffer of " + captured.size() + " bytes on " + captured.device();
      }
    } else if (args.isLocal(i) && args.size(i) != updated.size(i)) {
      expected = args.size(i) + " bytes of local memory";
    }
    if (expected != null) {
      throw new IllegalArgumentException(
          "kernel "
              + kernel.name()
              + " argument "
              + i
              + " ("
              + kernel.parameters().get(i)
              + "): expected "
              + expected
              + ", as the captured launch took; got "
              + argument);
    }
  }

  @Override
  public List<DeviceBuffer> reads() {
    return kernel.accesses().reads(args);
  }

  @Override
  public List<DeviceBuffer> writes() {
    return kernel.accesses().writes(args);
  }

  @Override
  public String toString() {
    return "launch of " + kernel.name() + " " + shape;
  }
}
