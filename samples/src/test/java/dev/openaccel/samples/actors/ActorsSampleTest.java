package dev.openaccel.samples.actors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.samples.SampleRun;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The actors sample run small: its result, and what the observer printed. */
@Timeout(120)
class ActorsSampleTest {
  private static SampleRun run;

  @BeforeAll
  static void runSmall() throws Exception {
    run = SampleRun.of(ActorsSample::run, "--batches", "3", "--batch-size", "1000");
  }

  @Test
  void consumerTotalMatchesTheSumOfSquares() {
    assertEquals(0, run.code(), run.out() + run.err());
    long n = 3000;
    assertTrue(
        run.out()
            .contains(
                "result: MATCH (consumer total "
                    + n * (n + 1) * (2 * n + 1) / 6
                    + " over 3 batches"),
        run.out());
  }

  @Test
  void producerAndConsumerEachRunOnTheirOwnDevice() {
    assertTrue(
        run.out().contains("producer: on openreg:0, Stream(device_type=openreg, device_index=0"),
        run.out());
    assertTrue(
        run.out().contains("consumer: on openreg:1, Stream(device_type=openreg, device_index=1"),
        run.out());
    for (int i = 0; i < 3; i++) {
      assertTrue(run.out().contains("producer: batch " + i + " is ready"), run.out());
      assertTrue(run.out().contains("consumer: batch " + i + " sums to "), run.out());
    }
  }

  @Test
  void observerSeesEveryKernelTheCrossDeviceWaitsAndTheEventSignal() {
    for (int i = 0; i < 3; i++) {
      assertTrue(
          run.out().contains("[trace]  openreg:0 stream 65 ran 'produce " + i + "' in "),
          run.out());
      assertTrue(
          run.out().contains("[trace]  openreg:1 stream 65 ran 'consume " + i + "' in "),
          run.out());
    }
    Pattern wait =
        Pattern.compile(
            "\\[trace]  openreg:1 stream 65 waits for event \\d+ \\(record 1, on openreg:0 stream 65\\)");
    assertEquals(3, wait.matcher(run.out()).results().count(), run.out());
    assertTrue(
        run.out().contains("[signal] consumer's last record: record 1 completed"), run.out());
    assertTrue(run.out().contains("observer saw 6 kernels finish"), run.out());
  }

  @Test
  void zeroBatchesAreRejected() throws Exception {
    SampleRun.of(ActorsSample::run, "--batches", "0")
        .assertUsageError("actors", "--batches expects a positive integer, got '0'");
  }

  @Test
  void totalsBeyondALongAreRejected() throws Exception {
    SampleRun.of(ActorsSample::run, "--batches", "100", "--batch-size", "100000")
        .assertUsageError("actors", "--batches x --batch-size is 10000000, at most 2000000");
  }

  @Test
  void unknownFlagIsRejected() throws Exception {
    SampleRun.of(ActorsSample::run, "--size", "3")
        .assertUsageError("actors", "unknown flag '--size'");
  }
}
