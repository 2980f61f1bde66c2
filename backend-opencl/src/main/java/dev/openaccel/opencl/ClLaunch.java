package dev.openaccel.opencl;

/** A checked device-kernel launch: the kernel, its shape and its encoded arguments. */
record ClLaunch(DeviceKernel kernel, String name, LaunchShape shape, KernelArguments args)
    implements ClWork {

  @Override
  public int enqueue(long queue, long eventAddress) {
    return kernel.enqueue(queue, shape, args, eventAddress);
  }

  @Override
  public void enqueued() {
    args.enqueued();
  }

  @Override
  public String toString() {
    return "launch of " + kernel.name() + " " + shape;
  }
}
