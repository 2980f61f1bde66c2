package dev.openaccel.opencl;

import static dev.openaccel.conformance.BackendTck.assertThrowsWith;
import static dev.openaccel.opencl.OpenClTestSupport.floats;
import static dev.openaccel.opencl.OpenClTestSupport.floatsOf;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.Stream;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

@RequiresOpenCl
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DeviceKernelTest {
  static final String SOURCE =
      """
      __kernel void axpy(float a, __global const float* x, __global float* y, uint n) {
        size_t i = get_global_id(0);
        if (i < n) y[i] += a * x[i];
      }
      """;

  private Accelerator accelerator;
  private OpenCl opencl;
  private Device device;

  @BeforeAll
  void start() {
    accelerator = OpenClTestSupport.start();
    opencl = OpenCl.get(accelerator);
    device = Device.of(OpenClProvider.TYPE, 0);
  }

  @AfterAll
  void close() {
    accelerator.close();
  }

  @Test
  void axpyRunsInStreamOrderBetweenCopies() {
    DeviceKernel axpy = opencl.compile(SOURCE).kernel("axpy");
    Stream stream = accelerator.newStream(device);
    try (DeviceBuffer x = accelerator.allocate(device, 16);
        DeviceBuffer y = accelerator.allocate(device, 16)) {
      stream.copyToDevice(floats(1, 2, 3, 4), x);
      stream.copyToDevice(floats(10, 20, 30, 40), y);
      axpy.launch(stream, LaunchShape.of(4), 2.0f, x, y, 4);
      ByteBuffer out = ByteBuffer.allocateDirect(16);
      stream.copyToHost(y, out);
      OpenClTestSupport.synchronize(stream);
      assertArrayEquals(new float[] {12, 24, 36, 48}, floatsOf(out));
    }
  }

  @Test
  void relaunchesTakeTheirOwnArgumentsWhetherOrNotTheyChanged() {
    DeviceKernel axpy = opencl.compile(SOURCE).kernel("axpy");
    Stream stream = accelerator.newStream(device);
    try (DeviceBuffer x = accelerator.allocate(device, 16);
        DeviceBuffer y = accelerator.allocate(device, 16);
        DeviceBuffer z = accelerator.allocate(device, 16)) {
      stream.copyToDevice(floats(1, 2, 3, 4), x);
      stream.copyToDevice(floats(0, 0, 0, 0), y);
      stream.copyToDevice(floats(0, 0, 0, 0), z);
      axpy.launch(stream, LaunchShape.of(4), 1.0f, x, y, 4);
      axpy.launch(stream, LaunchShape.of(4), 1.0f, x, y, 4); // the same slots again
      axpy.launch(stream, LaunchShape.of(4), 10.0f, x, z, 4); // a scalar and a buffer change
      axpy.launch(stream, LaunchShape.of(4), 10.0f, x, y, 2); // back to y, over two elements
      float[][] read = readAll(stream, y, z);
      assertArrayEquals(new float[] {12, 24, 6, 8}, read[0]);
      assertArrayEquals(new float[] {10, 20, 30, 40}, read[1]);
    }
  }

  @Test
  void localMemoryArgumentsOfDifferentSizesServeRelaunches() {
    DeviceKernel groupSum =
        opencl
            .compile(
                """
                __kernel void groupSum(__global const float* in, __global float* out,
                                       __local float* scratch) {
                  size_t lid = get_local_id(0);
                  scratch[lid] = in[get_global_id(0)];
                  barrier(CLK_LOCAL_MEM_FENCE);
                  if (lid == 0) {
                    float sum = 0;
                    for (size_t i = 0; i < get_local_size(0); i++) sum += scratch[i];
                    out[get_group_id(0)] = sum;
                  }
                }
                """)
            .kernel("groupSum");
    Stream stream = accelerator.newStream(device);
    float[] values = new float[64];
    for (int i = 0; i < values.length; i++) {
      values[i] = i;
    }
    try (DeviceBuffer in = accelerator.allocate(device, 256);
        DeviceBuffer by16 = accelerator.allocate(device, 16);
        DeviceBuffer by32 = accelerator.allocate(device, 8)) {
      stream.copyToDevice(floats(values), in);
      groupSum.launch(stream, LaunchShape.of(64).local(16), in, by16, LocalMemory.bytes(16 * 4));
      groupSum.launch(stream, LaunchShape.of(64).local(32), in, by32, LocalMemory.bytes(32 * 4));
      float[][] read = readAll(stream, by16, by32);
      assertArrayEquals(new float[] {120, 376, 632, 888}, read[0]);
      assertArrayEquals(new float[] {496, 1520}, read[1]);
    }
  }

  @Test
  void moreLocalMemoryThanTheDeviceHasIsRejectedAtTheCall() {
    DeviceKernel scratch =
        opencl
            .compile("__kernel void scratch(__global float* x, __local float* s) { x[0] = 1; }")
            .kernel("scratch");
    long has = opencl.devices().get(0).localMemory();
    Stream stream = accelerator.newStream(device);
    try (DeviceBuffer x = accelerator.allocate(device, 16)) {
      // A kernel may use some local memory of its own (NVIDIA's: 1 byte), which the message names.
      String message =
          assertThrows(
                  IllegalArgumentException.class,
                  () -> scratch.launch(stream, LaunchShape.of(1), x, LocalMemory.bytes(has + 4)))
              .getMessage();
      assertTrue(
          message.matches(
              "kernel scratch asks for "
                  + (has + 4)
                  + " bytes of local memory( beside its own \\d+)?, opencl:0 \\(.+\\) has "
                  + has),
          message);
      long threeGiB = 3L << 30; // past what an OpenCL argument size can carry
      String tooBig =
          assertThrows(
                  IllegalArgumentException.class,
                  () -> scratch.launch(stream, LaunchShape.of(1), x, LocalMemory.bytes(threeGiB)))
              .getMessage();
      assertTrue(
          tooBig.startsWith("kernel scratch argument 1 (")
              && tooBig.contains("asks for " + threeGiB + " bytes of local memory"),
          tooBig);
      scratch.launch(stream, LaunchShape.of(1), x, LocalMemory.bytes(64)); // the stream goes on
      OpenClTestSupport.synchronize(stream);
    }
  }

  @Test
  void localMemoryArgumentsCountBesideTheKernelsOwnLocalVariables() {
    long has = opencl.devices().get(0).localMemory();
    long ownFloats = has / 4 / 2; // half the device's local memory
    DeviceKernel halfOwn =
        opencl
            .compile(
                "__kernel void halfOwn(__global float* x, __local float* s) {"
                    + " __local float own["
                    + ownFloats
                    + "]; own[get_local_id(0)] = 1; s[0] = 2;"
                    + " barrier(CLK_LOCAL_MEM_FENCE); x[0] = own[0] + s[0]; }")
            .kernel("halfOwn");
    Stream stream = accelerator.newStream(device);
    try (DeviceBuffer x = accelerator.allocate(device, 16)) {
      assertThrowsWith(
          IllegalArgumentException.class,
          "kernel halfOwn asks for " + (has - 64) + " bytes of local memory beside its own ",
          () -> halfOwn.launch(stream, LaunchShape.of(1), x, LocalMemory.bytes(has - 64)));
      halfOwn.launch(stream, LaunchShape.of(1), x, LocalMemory.bytes(64));
      assertEquals(3f, readAll(stream, x)[0][0]);
    }
  }

  @Test
  void parametersComeFromTheCompiler() {
    List<KernelParameter> parameters = opencl.compile(SOURCE).kernel("axpy").parameters();
    assertEquals(4, parameters.size());
    assertEquals(KernelParameter.Space.PRIVATE, parameters.get(0).space());
    assertEquals("float", parameters.get(0).typeName());
    assertEquals(KernelParameter.Space.GLOBAL, parameters.get(2).space());
    assertEquals("y", parameters.get(2).name());
  }

  @Test
  void theSameSourceCompilesOnce() {
    assertSame(opencl.compile(SOURCE), opencl.compile(SOURCE));
  }

  @Test
  void aBuildErrorCarriesTheBuildLog() {
    OpenClException e =
        assertThrowsWith(
            OpenClException.class,
            "CL_BUILD_PROGRAM_FAILURE (-11)",
            () -> opencl.compile("__kernel void broken(__global float* x) { x[0] = y; }"));
    assertTrue(e.getMessage().contains("build log of"), e.getMessage());
    assertTrue(e.getMessage().contains("'y'"), e.getMessage());
  }

  @Test
  void anUnknownKernelNameIsNamed() {
    assertThrowsWith(
        OpenClException.class,
        "CL_INVALID_KERNEL_NAME (-46)",
        () -> opencl.compile(SOURCE).kernel("nope"));
  }

  @Test
  void aWrongArgumentCountIsRejectedAtTheCall() {
    DeviceKernel axpy = opencl.compile(SOURCE).kernel("axpy");
    Stream stream = accelerator.newStream(device);
    assertThrowsWith(
        IllegalArgumentException.class,
        "kernel axpy takes 4 arguments",
        () -> axpy.launch(stream, LaunchShape.of(4), 2.0f));
  }

  @Test
  void aWrongArgumentTypeIsRejectedAtTheCall() {
    DeviceKernel axpy = opencl.compile(SOURCE).kernel("axpy");
    Stream stream = accelerator.newStream(device);
    try (DeviceBuffer x = accelerator.allocate(device, 16)) {
      assertThrowsWith(
          IllegalArgumentException.class,
          "argument 0 (float a) needs a Float, got Double 2.0",
          () -> axpy.launch(stream, LaunchShape.of(4), 2.0, x, x, 4));
      assertThrowsWith(
          IllegalArgumentException.class,
          "argument 2 (__global float* y) needs a DeviceBuffer, got Integer 7",
          () -> axpy.launch(stream, LaunchShape.of(4), 2.0f, x, 7, 4));
    }
  }

  @Test
  void anEnqueueErrorFailsTheStreamWithItsName() {
    DeviceKernel axpy = opencl.compile(SOURCE).kernel("axpy");
    Stream stream = accelerator.newStream(device);
    try (DeviceBuffer x = accelerator.allocate(device, 16)) {
      axpy.launch(stream, LaunchShape.of(8192).local(8192), 2.0f, x, x, 4);
      DeviceExecutionException e =
          assertThrowsWith(
              DeviceExecutionException.class, "axpy", () -> OpenClTestSupport.synchronize(stream));
      assertTrue(String.valueOf(e.getCause()).contains("CL_INVALID_"), String.valueOf(e));
    }
  }

  /** Copies each buffer to the host on {@code stream}, waits, and returns their floats. */
  private static float[][] readAll(Stream stream, DeviceBuffer... buffers) {
    ByteBuffer[] outs = new ByteBuffer[buffers.length];
    for (int i = 0; i < buffers.length; i++) {
      outs[i] = ByteBuffer.allocateDirect((int) buffers[i].size());
      stream.copyToHost(buffers[i], outs[i]);
    }
    OpenClTestSupport.synchronize(stream);
    float[][] values = new float[buffers.length][];
    for (int i = 0; i < buffers.length; i++) {
      values[i] = floatsOf(outs[i]);
    }
    return values;
  }
}
