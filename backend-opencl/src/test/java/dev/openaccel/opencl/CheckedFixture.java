package dev.openaccel.opencl;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * What the checked-kernel tests share: an accelerator on the OpenCL device 0 and the checked
 * program of {@link CheckedKernelsTest#SOURCE}, built once per class.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class CheckedFixture {
  Accelerator accelerator;
  OpenCl opencl;
  Device device;
  DeviceProgram checked;

  @BeforeAll
  void start() {
    accelerator = OpenClTestSupport.start();
    opencl = OpenCl.get(accelerator);
    device = Device.of(OpenClProvider.TYPE, 0);
    checked = opencl.compile(CheckedKernelsTest.SOURCE, ProgramOptions.defaults().checked(true));
  }

  @AfterAll
  void close() {
    accelerator.close();
  }
}
