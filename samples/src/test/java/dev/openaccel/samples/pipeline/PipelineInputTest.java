package dev.openaccel.samples.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.samples.SampleRun;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The pipeline sample's answers to bad input: one line, the usage, exit code 2, nothing run. */
@Timeout(120)
class PipelineInputTest {

  private static SampleRun run(String... args) throws Exception {
    return SampleRun.of(PipelineSample::run, args);
  }

  @Test
  void helpExplainsEveryFlag() throws Exception {
    SampleRun help = run("--help");
    assertEquals(0, help.code());
    for (String flag :
        new String[] {
          "--size N", "--tile T", "--devices D", "--streams S", "--out DIR", "--help"
        }) {
      assertTrue(help.out().contains("\n  " + flag), flag + " missing from:\n" + help.out());
    }
  }

  @Test
  void unknownFlagIsRejected() throws Exception {
    run("--threads", "4").assertUsageError("pipeline", "unknown flag '--threads'");
  }

  @Test
  void nonNumericSizeIsRejected() throws Exception {
    run("--size", "big")
        .assertUsageError("pipeline", "--size expects a positive integer, got 'big'");
  }

  @Test
  void zeroStreamsAreRejected() throws Exception {
    run("--streams", "0")
        .assertUsageError("pipeline", "--streams expects a positive integer, got '0'");
  }

  @Test
  void sizeThatIsNotAMultipleOfTheTileIsRejected() throws Exception {
    run("--size", "100", "--tile", "16")
        .assertUsageError("pipeline", "--size 100 is not a multiple of --tile 16 (try --size 112)");
  }

  @Test
  void tileLargerThanTheMatrixIsRejected() throws Exception {
    run("--size", "64", "--tile", "128")
        .assertUsageError("pipeline", "--size 64 is not a multiple of --tile 128");
  }

  @Test
  void moreDevicesThanAvailableAreRejected() throws Exception {
    run("--size", "32", "--tile", "16", "--devices", "3")
        .assertUsageError("pipeline", "--devices 3 but only 2 openreg devices are available");
  }

  @Test
  void tilesThatDoNotFitDeviceMemoryAreRejected() throws Exception {
    run("--size", "2048", "--tile", "2048", "--streams", "4")
        .assertUsageError(
            "pipeline",
            "--tile 2048 x --streams 4 needs 384.0 MiB of tile buffers on openreg:0, which has 256.0 MiB free");
  }

  @Test
  void matricesBeyondOneJavaBufferAreRejected() throws Exception {
    run("--size", "30000", "--tile", "30000")
        .assertUsageError(
            "pipeline",
            "--size 30000 needs 3433.2 MiB per matrix, more than one Java buffer holds");
  }

  @Test
  void outputPathThatIsAFileIsRejected(@TempDir Path dir) throws Exception {
    Path file = Files.writeString(dir.resolve("taken"), "not a directory");
    run("--size", "32", "--tile", "16", "--out", file.toString())
        .assertUsageError("pipeline", "--out " + file + " exists and is not a directory");
  }
}
