package dev.openaccel.samples.quickstart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.samples.SampleRun;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The README's first program, run through its sample entry. */
@Timeout(120)
class QuickstartTest {

  @Test
  void consumerSeesWhatTheProducerMade() throws Exception {
    SampleRun run = SampleRun.of(Quickstart::run);
    assertEquals(0, run.code(), run.out() + run.err());
    Matcher m = Pattern.compile("consumer saw (\\d+) \\(expected (\\d+)\\)").matcher(run.out());
    assertTrue(m.find(), run.out());
    assertEquals(m.group(2), m.group(1));
    assertEquals(Long.toString(Quickstart.sumOfSquares(2_000_000) % 1_000_003), m.group(1));
    assertTrue(run.out().contains("devices: 2 x openreg"), run.out());
    assertTrue(run.out().contains(" ms on the device clock"), run.out());
  }

  @Test
  void anyFlagButHelpIsRejected() throws Exception {
    SampleRun.of(Quickstart::run, "--fast").assertUsageError("quickstart", "unknown flag '--fast'");
  }
}
