package dev.openaccel.opencl;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Stream;

/** A bare {@code cl_mem} as a kernel argument, for tests of the queue layer without an engine. */
record RawBuffer(long mem, long size) implements DeviceBuffer {

  @Override
  public Device device() {
    return Device.of(OpenClProvider.TYPE, 0);
  }

  @Override
  public void recordStream(Stream stream) {
    throw new UnsupportedOperationException("a raw test buffer has no streams");
  }

  @Override
  public void close() {}

  static long memOf(DeviceBuffer buffer) {
    return ((RawBuffer) buffer).mem();
  }
}
