package dev.openaccel.opencl;

import static dev.openaccel.conformance.BackendTck.assertThrowsWith;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import org.junit.jupiter.api.Test;

/** After the accelerator closed, OpenCL calls are refused with a clear error, never a crash. */
@RequiresOpenCl
class AfterCloseTest {
  static final String SOURCE = "__kernel void k(__global float* x) { x[0] = 1; }";

  @Test
  void compilingAfterCloseIsRefused() {
    Accelerator accelerator = OpenClTestSupport.start();
    OpenCl opencl = OpenCl.get(accelerator);
    accelerator.close();
    for (int i = 0; i < 5; i++) {
      String source = SOURCE + "// " + i;
      assertThrowsWith(
          IllegalStateException.class,
          "cannot compile a program: the accelerator's opencl backend is closed",
          () -> opencl.compile(source));
    }
  }

  @Test
  void allocatingAfterCloseIsRefused() {
    Accelerator accelerator = OpenClTestSupport.start();
    Device device = Device.of(OpenClProvider.TYPE, 0);
    accelerator.close();
    for (int i = 0; i < 5; i++) {
      assertThrowsWith(
          IllegalStateException.class,
          "closed",
          () -> accelerator.allocate(device, 1 << 20).close());
    }
  }

  @Test
  void aKernelOfAProgramBuiltBeforeCloseIsRefused() {
    Accelerator accelerator = OpenClTestSupport.start();
    DeviceProgram program = OpenCl.get(accelerator).compile(SOURCE);
    accelerator.close();
    assertThrowsWith(
        IllegalStateException.class,
        "cannot create a kernel: the accelerator's opencl backend is closed",
        () -> program.kernel("k"));
  }
}
