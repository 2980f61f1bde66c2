package dev.openaccel.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The launcher: sample names, the default sample, help, and unknown names. */
@Timeout(120)
class LauncherTest {

  @Test
  void everySampleIsRegisteredWithThePipelineFirst() {
    assertEquals(
        List.of("pipeline", "actors", "timing", "quickstart"), List.copyOf(Launcher.names()));
    assertEquals("pipeline", Launcher.DEFAULT);
  }

  @Test
  void helpListsEverySampleAndTheDefaultSamplesFlags() throws Exception {
    SampleRun run = SampleRun.of(Launcher::run, "--help");
    assertEquals(0, run.code());
    for (String name : Launcher.names()) {
      assertTrue(run.out().contains("\n  " + name + " "), name + " missing from:\n" + run.out());
    }
    for (String flag : List.of("--size N", "--tile T", "--devices D", "--streams S", "--out DIR")) {
      assertTrue(run.out().contains(flag), flag + " missing from:\n" + run.out());
    }
    assertEquals("", run.err());
  }

  @Test
  void everySampleAnswersHelpWithItsOwnUsage() throws Exception {
    for (String name : Launcher.names()) {
      SampleRun run = SampleRun.of(Launcher::run, name, "--help");
      assertEquals(0, run.code(), name);
      assertTrue(run.out().startsWith("usage: " + name), run.out());
      assertTrue(run.out().contains("--help"), run.out());
    }
  }

  @Test
  void unknownSampleIsRejectedWithTheListOfSamples() throws Exception {
    SampleRun run = SampleRun.of(Launcher::run, "nope");
    assertEquals(2, run.code());
    assertEquals("", run.out());
    assertEquals("unknown sample 'nope'", run.err().lines().findFirst().orElseThrow());
    assertTrue(run.err().contains("quickstart"), run.err());
    assertFalse(run.err().contains("Exception"), run.err());
  }

  @Test
  void flagsWithoutASampleNameGoToThePipeline(@TempDir Path dir) throws Exception {
    SampleRun run =
        SampleRun.of(Launcher::run, "--size", "32", "--tile", "16", "--out", dir.toString());
    assertEquals(0, run.code(), run.err());
    assertTrue(run.out().startsWith("pipeline: C = A x B, 32 x 32"), run.out());
    assertTrue(run.out().contains("result: MATCH"), run.out());
  }

  @Test
  void aBadFlagOfTheDefaultSampleIsItsUsageError() throws Exception {
    SampleRun.of(Launcher::run, "--sise", "32")
        .assertUsageError("pipeline", "unknown flag '--sise'");
  }
}
