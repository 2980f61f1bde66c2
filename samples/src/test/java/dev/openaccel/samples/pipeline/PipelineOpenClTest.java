package dev.openaccel.samples.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.samples.SampleRun;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pipeline sample with {@code --backend opencl}: the tile multiply as an OpenCL kernel, checked
 * against the Java reference. Skipped without an OpenCL platform, unless {@code
 * openaccel.opencl.required} is set.
 */
@Timeout(120)
class PipelineOpenClTest {
  @TempDir Path dir;

  @Test
  void theOpenClTileMultiplyMatchesTheReference() throws Exception {
    SampleRun run =
        SampleRun.of(
            PipelineSample::run,
            "--backend",
            "opencl",
            "--devices",
            "1",
            "--size",
            "64",
            "--tile",
            "16",
            "--out",
            dir.toString());
    if (run.code() == 2 && run.err().contains("but only 0 opencl devices are available")) {
      Assumptions.assumeFalse(
          Boolean.getBoolean("openaccel.opencl.required"), "no OpenCL platform: " + run.err());
    }
    assertEquals(0, run.code(), run.out() + run.err());
    assertTrue(run.out().contains("\nopencl:0  device time "), run.out());
    assertTrue(run.out().contains("\nresult: MATCH (max |C - reference| = "), run.out());
  }

  @Test
  void anUnknownBackendIsAUsageError() throws Exception {
    SampleRun.of(PipelineSample::run, "--backend", "cuda")
        .assertUsageError("pipeline", "--backend cuda is neither openreg nor opencl");
  }

  @Test
  void openClTilesMustBeMultiplesOfEight() throws Exception {
    SampleRun.of(PipelineSample::run, "--backend", "opencl", "--size", "60", "--tile", "12")
        .assertUsageError("pipeline", "multiple of 8, got 12");
  }
}
