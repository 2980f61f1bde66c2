package dev.openaccel.opencl;

import static dev.openaccel.conformance.BackendTck.assertThrowsWith;
import static dev.openaccel.opencl.OpenClTestSupport.floats;
import static dev.openaccel.opencl.OpenClTestSupport.floatsOf;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.Stream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/**
 * Checked kernels on the device: an access out of bounds fails the launch with a {@link
 * KernelBoundsException} at the sync point instead of crashing the JVM (2^22 work-items on a
 * 64-byte buffer would, unchecked, on PoCL), the stream runs on, and in-bounds kernels compute what
 * they compute unchecked. {@link CheckedProgramsTest} covers building them.
 */
@RequiresOpenCl
class CheckedKernelsTest extends CheckedFixture {
  static final String SOURCE =
      """
      // the reads of x past its end are out of bounds; out keeps what was read in bounds
      __kernel void oob_read(__global const float* x, __global float* out) {
        size_t i = get_global_id(0);
        float v = x[i];
        if (i < 16) out[i] = v;
      }

      __kernel void oob_write(__global float* y) {
        y[get_global_id(0)] = 1.0f; /* every work-item writes */
      }

      __kernel void shifted(__global float* y, int shift) {
        y[(int) get_global_id(0) + shift] = 1.0f;
      }

      __kernel void saxpy(float a, __global const float* restrict x,
                          __global float* restrict y, int n) {
        size_t i = get_global_id(0);
        if (i < n) y[i] = a * x[i] + y[i];
      }

      __kernel void gather(__global const int* idx, __global const float4* src,
                           __global float4* dst) {
        size_t i = get_global_id(0);
        dst[i] = src[idx[i]];
        dst[i].w = 0.0f;
      }
      """;
  private static final long BIG = 1L << 22;

  @Test
  void anOutOfBoundsReadFailsAtTheSyncPointNamingKernelArgumentAndIndex() {
    DeviceKernel read = checked.kernel("oob_read");
    Stream stream = accelerator.newStream(device);
    try (DeviceBuffer x = accelerator.allocate(device, 64);
        DeviceBuffer out = accelerator.allocate(device, 64)) {
      stream.copyToDevice(floats(sequence(16, 1)), x);
      read.launch(stream, LaunchShape.of(BIG), x, out);
      KernelBoundsException bounds = failure(stream, "oob_read");
      assertEquals("oob_read", bounds.kernel());
      assertEquals(0, bounds.argument());
      assertEquals("__global float* x", bounds.parameter()); // OpenCL reports no const
      assertFalse(bounds.write());
      assertTrue(bounds.index() >= 16 && bounds.index() < BIG, bounds.getMessage());
      assertEquals(16, bounds.elements());
      assertEquals(BIG - 16, bounds.accesses());
      assertTrue(
          bounds
              .getMessage()
              .startsWith(
                  "kernel oob_read argument 0 (__global float* x): out-of-bounds read at"
                      + " index "
                      + bounds.index()
                      + ", outside its 16 elements ("
                      + (BIG - 16)
                      + " out-of-bounds accesses"),
          bounds.getMessage());
      assertArrayEquals(sequence(16, 1), read(stream, out), "the reads in bounds");
    }
  }

  @Test
  void anOutOfBoundsWriteIsSkippedAndTheStreamRunsOn() {
    Stream stream = accelerator.newStream(device);
    try (DeviceBuffer before = accelerator.allocate(device, 64);
        DeviceBuffer y = accelerator.allocate(device, 64);
        DeviceBuffer after = accelerator.allocate(device, 64)) {
      stream.copyToDevice(floats(sequence(16, 100)), before);
      stream.copyToDevice(floats(new float[16]), y);
      stream.copyToDevice(floats(sequence(16, 200)), after);
      checked.kernel("oob_write").launch(stream, "oob_write tile 0", LaunchShape.of(BIG), y);
      KernelBoundsException bounds = failure(stream, "oob_write");
      assertTrue(bounds.write());
      assertEquals("__global float* y", bounds.parameter());
      assertEquals(BIG - 16, bounds.accesses());
      assertTrue(
          bounds.getMessage().startsWith("kernel oob_write (launch 'oob_write tile 0') argument 0"),
          bounds.getMessage());
      float[] ones = new float[16];
      java.util.Arrays.fill(ones, 1.0f);
      assertArrayEquals(ones, read(stream, y), "the writes in bounds");
      assertArrayEquals(sequence(16, 100), read(stream, before), "the buffers beside it");
      assertArrayEquals(sequence(16, 200), read(stream, after), "the buffers beside it");
      // the stream runs on: a checked kernel in bounds, then the one that fails again
      checked.kernel("oob_write").launch(stream, LaunchShape.of(16), y);
      OpenClTestSupport.synchronize(stream);
      checked.kernel("oob_write").launch(stream, LaunchShape.of(17), y);
      assertEquals(16, failure(stream, "oob_write").index());
    }
  }

  @Test
  void aNegativeIndexIsReportedAsItIs() {
    Stream stream = accelerator.newStream(device);
    try (DeviceBuffer y = accelerator.allocate(device, 64)) {
      checked.kernel("shifted").launch(stream, LaunchShape.of(16), y, -1);
      KernelBoundsException bounds = failure(stream, "shifted");
      assertEquals(-1, bounds.index());
      assertEquals(1, bounds.accesses());
      assertTrue(bounds.getMessage().contains("write at index -1, outside its 16 elements"));
    }
  }

  @Test
  void saxpyGivesTheSameResultsCheckedAndUnchecked() {
    int n = 1000;
    float[] x = new float[n];
    float[] y = new float[n];
    java.util.Random random = new java.util.Random(42);
    for (int i = 0; i < n; i++) {
      x[i] = random.nextFloat() * 100 - 50;
      y[i] = random.nextFloat() * 100 - 50;
    }
    DeviceProgram unchecked = opencl.compile(SOURCE, ProgramOptions.defaults().checked(false));
    float[] plain = saxpy(unchecked.kernel("saxpy"), x, y, n);
    float[] guarded = saxpy(checked.kernel("saxpy"), x, y, n);
    assertArrayEquals(plain, guarded);
    assertEquals(2.5f * x[7] + y[7], plain[7], Math.ulp(plain[7]) * 2);
  }

  @Test
  void severalParametersVectorsAndNestedIndicesAreCheckedEach() {
    DeviceKernel gather = checked.kernel("gather");
    Stream stream = accelerator.newStream(device);
    try (DeviceBuffer idx = accelerator.allocate(device, 16);
        DeviceBuffer src = accelerator.allocate(device, 64);
        DeviceBuffer dst = accelerator.allocate(device, 64)) {
      stream.copyToDevice(ints(3, 2, 1, 0), idx);
      stream.copyToDevice(floats(sequence(16, 0)), src);
      gather.launch(stream, LaunchShape.of(4), idx, src, dst);
      float[] gathered = read(stream, dst);
      assertArrayEquals(
          new float[] {12, 13, 14, 0, 8, 9, 10, 0}, java.util.Arrays.copyOf(gathered, 8));
      stream.copyToDevice(ints(3, 2, 1, 9), idx); // src has 4 float4 elements
      gather.launch(stream, LaunchShape.of(4), idx, src, dst);
      KernelBoundsException bounds = failure(stream, "gather");
      assertEquals(1, bounds.argument());
      assertEquals("__global float4* src", bounds.parameter());
      assertEquals(9, bounds.index());
      assertEquals(4, bounds.elements());
      assertEquals(1, bounds.accesses());
      float[] zeroRead = java.util.Arrays.copyOfRange(read(stream, dst), 12, 16);
      assertArrayEquals(new float[4], zeroRead, "dst[3] = src[9], read out of bounds: 0");
      gather.launch(stream, LaunchShape.of(5), idx, src, dst); // idx[4] and dst[4] twice too
      assertEquals(4, failure(stream, "gather").accesses()); // src[9] again
    }
  }

  /** The stream's sync fails with the launch's bounds failure as its cause, which it returns. */
  private static KernelBoundsException failure(Stream stream, String kernel) {
    DeviceExecutionException e =
        assertThrowsWith(
            DeviceExecutionException.class, kernel, () -> OpenClTestSupport.synchronize(stream));
    return assertInstanceOf(KernelBoundsException.class, e.getCause(), String.valueOf(e));
  }

  private float[] saxpy(DeviceKernel saxpy, float[] x, float[] y, int n) {
    Stream stream = accelerator.newStream(device);
    try (DeviceBuffer dx = accelerator.allocate(device, 4L * n);
        DeviceBuffer dy = accelerator.allocate(device, 4L * n)) {
      stream.copyToDevice(floats(x), dx);
      stream.copyToDevice(floats(y), dy);
      saxpy.launch(stream, LaunchShape.of(1024), 2.5f, dx, dy, n);
      return read(stream, dy);
    }
  }

  private static float[] read(Stream stream, DeviceBuffer buffer) {
    ByteBuffer out = ByteBuffer.allocateDirect((int) buffer.size());
    stream.copyToHost(buffer, out);
    OpenClTestSupport.synchronize(stream);
    return floatsOf(out);
  }

  private static float[] sequence(int n, int from) {
    float[] values = new float[n];
    for (int i = 0; i < n; i++) {
      values[i] = from + i;
    }
    return values;
  }

  private static ByteBuffer ints(int... values) {
    ByteBuffer bytes = ByteBuffer.allocateDirect(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
    bytes.asIntBuffer().put(values);
    return bytes;
  }
}
