package dev.openaccel.opencl;

import dev.openaccel.runtime.DeviceBuffer;
import java.util.List;

/**
 * A checked device-kernel launch: the kernel, its shape and its encoded arguments, and for a kernel
 * of a checked program the bounds check of this launch (else null). It declares the buffers it
 * reads and writes ({@link KernelAccesses}) to the stream sanitizer.
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
