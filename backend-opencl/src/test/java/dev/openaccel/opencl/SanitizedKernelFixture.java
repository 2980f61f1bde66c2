package dev.openaccel.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.UnsynchronizedAccessException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.function.Executable;

/**
 * Device kernels and buffers for the sanitizer's OpenCL tests, and the exact report the sanitizer
 * gives for a race.
 */
final class SanitizedKernelFixture {
  static final Device D0 = Device.of(OpenClProvider.TYPE, 0);
  static final int N = 4;

  /** {@code fill} writes y; {@code add} reads x and writes y; {@code scale} reads c, writes y. */
  static final String SOURCE =
      """
      __kernel void fill(__global float* y, float v) { y[get_global_id(0)] = v; }
      __kernel void add(__global const float* x, __global float* y) {
        size_t i = get_global_id(0);
        y[i] += x[i];
      }
      __kernel void scale(__constant float* c, __global float* y) { y[get_global_id(0)] *= c[0]; }
      """;

  /**
   * One access as a report names it.
   *
   * @param name the kernel ({@code kernel 'fill'}) or copy ({@code copyToDevice})
   * @param mode {@code read} or {@code write}
   * @param position its position in its stream, from 1
   * @param stream its stream
   */
  record Access(String name, String mode, int position, Stream stream) {
    @Override
    public String toString() {
      return name + " (" + mode + ") at position " + position + " of " + stream;
    }
  }

  private final Accelerator acc;
  private final DeviceProgram program;
  private final List<DeviceBuffer> buffers = new ArrayList<>();

  SanitizedKernelFixture(Accelerator acc) {
    this.acc = acc;
    this.program = OpenCl.get(acc).compile(SOURCE);
  }

  /** A buffer of {@link #N} floats on device 0; closed by {@link #closeAll}. */
  DeviceBuffer buffer() {
    DeviceBuffer buffer = acc.allocate(D0, N * Float.BYTES);
    buffers.add(buffer);
    return buffer;
  }

  /** The kernel {@code name} of {@link #SOURCE}. */
  DeviceKernel kernel(String name) {
    return program.kernel(name);
  }

  /** Launches {@code fill(y, v)} on {@code stream}: writes {@code y}. */
  void fill(Stream stream, DeviceBuffer y, float v) {
    program.kernel("fill").launch(stream, LaunchShape.of(N), y, v);
  }

  /** Launches {@code add(x, y)} on {@code stream}: reads {@code x}, writes {@code y}. */
  void add(Stream stream, DeviceBuffer x, DeviceBuffer y) {
    program.kernel("add").launch(stream, LaunchShape.of(N), x, y);
  }

  /** Launches {@code scale(c, y)} on {@code stream}: reads {@code c} ({@code __constant}). */
  void scale(Stream stream, DeviceBuffer c, DeviceBuffer y) {
    program.kernel("scale").launch(stream, LaunchShape.of(N), c, y);
  }

  /** Copies {@code buffer} to the host on {@code stream}, synchronizes it, returns the floats. */
  static float[] read(Stream stream, DeviceBuffer buffer) {
    ByteBuffer out = ByteBuffer.allocateDirect(N * Float.BYTES);
    stream.copyToHost(buffer, out);
    OpenClTestSupport.synchronize(stream);
    return OpenClTestSupport.floatsOf(out);
  }

  /** The sanitizer's report of {@code now} racing with {@code earlier} on {@code buffer}. */
  static String report(DeviceBuffer buffer, Access now, Access earlier) {
    return "unsynchronized access to "
        + buffer
        + ": "
        + now
        + " is not ordered after "
        + earlier
        + "; add waitEvent(an event recorded on "
        + earlier.stream()
        + " after "
        + earlier.name()
        + ") or waitStream("
        + earlier.stream()
        + ") on "
        + now.stream()
        + " before "
        + now.name()
        + ", or synchronize "
        + earlier.stream()
        + " before enqueuing it";
  }

  /** Asserts that {@code racing} throws the sanitizer's exception with exactly {@code report}. */
  static void assertRace(Executable racing, String report) {
    assertEquals(report, assertThrows(UnsynchronizedAccessException.class, racing).getMessage());
  }

  /** Orders the host after all work of device 0, then closes every buffer made here. */
  void closeAll() {
    acc.synchronize(D0);
    buffers.forEach(DeviceBuffer::close);
    buffers.clear();
  }
}
