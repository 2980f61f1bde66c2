package dev.openaccel.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Accelerator;
import org.junit.jupiter.api.Test;

/**
 * Without a usable OpenCL platform the backend reports 0 devices and says why; it never throws.
 * Runs everywhere: a platform name that matches nothing stands for a machine without OpenCL.
 */
class OpenClAvailabilityTest {

  @Test
  void aPlatformThatMatchesNothingLeavesZeroDevicesAndAReason() {
    try (Accelerator accelerator =
        OpenClTestSupport.start("openaccel.opencl.platform = \"no-such-platform\"")) {
      assertEquals(0, accelerator.deviceCount(OpenClProvider.TYPE));
      String reason = OpenCl.get(accelerator).unavailableReason().orElseThrow();
      assertTrue(
          reason.contains("no-such-platform") || reason.contains("could not be loaded"), reason);
      dev.openaccel.conformance.BackendTck.assertThrowsWith(
          IllegalStateException.class,
          "the opencl backend has no devices",
          () -> OpenCl.get(accelerator).compile("__kernel void k() {}"));
    }
  }

  @Test
  void aDeviceSelectorThatMatchesNothingNamesTheDevicesThereAre() {
    ClPlatforms.Probe probe =
        ClPlatforms.probe(
            new OpenClSettings(
                "",
                java.util.List.of("no-such-device"),
                true,
                true,
                "",
                "libOpenCL.so.1",
                1,
                1,
                1,
                0,
                dev.openaccel.runtime.spi.WaitStrategy.BLOCKING,
                Completions.AUTO,
                false));
    assertTrue(probe instanceof ClPlatforms.Unavailable, String.valueOf(probe));
  }

  @Test
  void anUnknownWaitStrategyIsAnErrorNamingTheKeyAndTheValue() {
    IllegalArgumentException e = settingsWith("openaccel.opencl.wait-strategy = fast");
    assertTrue(e.getMessage().contains("openaccel.opencl.wait-strategy"), e.getMessage());
    assertTrue(e.getMessage().contains("fast"), e.getMessage());
  }

  @Test
  void anUnknownCompletionsModeIsAnErrorNamingTheKeyTheValueAndTheModes() {
    assertEquals(
        "openaccel.opencl.completions must be one of auto, callbacks, waiting-threads, got 'polling'",
        settingsWith("openaccel.opencl.completions = polling").getMessage());
  }

  /** The error of reading the settings with {@code line} over the defaults. */
  private static IllegalArgumentException settingsWith(String line) {
    return org.junit.jupiter.api.Assertions.assertThrows(
        IllegalArgumentException.class,
        () ->
            OpenClSettings.from(
                com.typesafe.config.ConfigFactory.parseString(line)
                    .withFallback(com.typesafe.config.ConfigFactory.load())));
  }

  @Test
  void autoCompletionsWaitWithThreadsOnNvidiasPlatformOnly() {
    assertEquals(Completions.WAITING_THREADS, Completions.AUTO.on("NVIDIA CUDA"));
    assertEquals(Completions.CALLBACKS, Completions.AUTO.on("Portable Computing Language"));
    assertEquals(Completions.WAITING_THREADS, Completions.WAITING_THREADS.on("Portable"));
    assertEquals(Completions.CALLBACKS, Completions.CALLBACKS.on("NVIDIA CUDA"));
  }

  @Test
  void selectorsMatchAnIndexOrPartOfANameIgnoringCase() {
    assertTrue(ClPlatforms.matches("", 3, "anything"));
    assertTrue(ClPlatforms.matches("1", 1, "Portable Computing Language"));
    assertTrue(!ClPlatforms.matches("1", 0, "Portable Computing Language"));
    assertTrue(ClPlatforms.matches("portable", 0, "Portable Computing Language"));
    assertTrue(!ClPlatforms.matches("nvidia", 0, "Portable Computing Language"));
  }

  @Test
  void errorCodesAreNamed() {
    OpenClException e = new OpenClException("clEnqueueNDRangeKernel(k)", -52);
    assertEquals("clEnqueueNDRangeKernel(k) failed: CL_INVALID_KERNEL_ARGS (-52)", e.getMessage());
    assertEquals("CL_INVALID_KERNEL_ARGS", e.name());
    assertEquals("CL_UNKNOWN_ERROR (-9999)", ClErrors.describe(-9999));
  }
}
