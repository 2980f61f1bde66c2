package dev.openaccel.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.openaccel.opencl.DeviceKernel;
import dev.openaccel.opencl.LaunchShape;
import dev.openaccel.opencl.OpenCl;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.Stream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Faults and steps on a backend whose streams have device queues (OpenCL): a device kernel fails or
 * waits like a Java kernel, in stream order with the device work around it.
 */
@OpenAccelTest
class DeviceQueueFaultsTest {
  private static final DeviceType OPENCL = DeviceType.of("opencl");
  private static final String SOURCE =
      """
      __kernel void add(__global float* y, float a) {
        y[get_global_id(0)] += a;
      }
      """;

  private Device device;

  @BeforeEach
  void openCl(Accelerator accelerator) {
    assumeTrue(
        accelerator.deviceTypes().contains(OPENCL)
            || Boolean.getBoolean("openaccel.opencl.required"),
        "no OpenCL platform here");
    device = Device.of(OPENCL, 0);
  }

  @Test
  void aDeviceKernelFailsByNameAndTheWorkAroundItRuns(Accelerator accelerator) {
    DeviceKernel add = OpenCl.get(accelerator).compile(SOURCE).kernel("add");
    try (Stream stream = accelerator.newStream(device);
        DeviceBuffer y = accelerator.allocate(device, 16)) {
      Faults.on(accelerator).failNamed(stream, "add", new IllegalStateException("device fault"));
      stream.copyToDevice(floats(1, 2, 3, 4), y);
      add.launch(stream, LaunchShape.of(4), y, 10f); // fails: never reaches the device
      add.launch(stream, LaunchShape.of(4), y, 100f);
      ByteBuffer out = ByteBuffer.allocateDirect(16).order(ByteOrder.nativeOrder());
      stream.copyToHost(y, out);
      DeviceExecutionException failure =
          assertThrows(DeviceExecutionException.class, stream::synchronize);
      assertTrue(failure.getMessage().startsWith("kernel 'add' failed on "), failure.getMessage());
      assertEquals("device fault", failure.getCause().getMessage());
      assertArrayEquals(new float[] {101, 102, 103, 104}, floatsOf(out), 0f);
    }
  }

  @Test
  void aSteppedDeviceStreamRunsOneCopyOrKernelPerStep(Accelerator accelerator) {
    DeviceKernel add = OpenCl.get(accelerator).compile(SOURCE).kernel("add");
    Duration wait = Duration.ofSeconds(10);
    try (Stream stream = accelerator.newStream(device);
        DeviceBuffer y = accelerator.allocate(device, 16);
        StreamStepper stepper = StreamStepper.on(accelerator, stream)) {
      ByteBuffer out = ByteBuffer.allocateDirect(16).order(ByteOrder.nativeOrder());
      stream.copyToDevice(floats(1, 2, 3, 4), y);
      add.launch(stream, LaunchShape.of(4), y, 1f);
      stream.copyToHost(y, out);
      assertEquals("copyToDevice", stepper.awaitHeld(wait));
      stepper.step();
      assertEquals("add", stepper.awaitHeld(wait));
      stepper.step();
      assertEquals("copyToHost", stepper.awaitHeld(wait));
      stepper.step();
      stream.synchronize();
      assertArrayEquals(new float[] {2, 3, 4, 5}, floatsOf(out), 0f);
      assertEquals(java.util.List.of("copyToDevice", "add", "copyToHost"), stepper.stepped());
    }
  }

  private static ByteBuffer floats(float... values) {
    ByteBuffer buffer = ByteBuffer.allocateDirect(values.length * 4).order(ByteOrder.nativeOrder());
    buffer.asFloatBuffer().put(values);
    return buffer;
  }

  private static float[] floatsOf(ByteBuffer buffer) {
    float[] values = new float[buffer.capacity() / 4];
    buffer.duplicate().order(ByteOrder.nativeOrder()).asFloatBuffer().get(values);
    return values;
  }
}
