package dev.openaccel.samples.timing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.samples.SampleRun;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The timing sample run small: measured intervals, then the five elapsedTime errors. */
@Timeout(120)
class TimingSampleTest {
  private static SampleRun run;

  @BeforeAll
  static void runSmall() throws Exception {
    run = SampleRun.of(TimingSample::run, "--busy-ms", "5");
  }

  private static double interval(String label) {
    Matcher m = Pattern.compile(Pattern.quote(label) + " +(-?[0-9.]+) ms").matcher(run.out());
    assertTrue(m.find(), label + " missing from:\n" + run.out());
    return Double.parseDouble(m.group(1));
  }

  @Test
  void runSucceeds() {
    assertEquals(0, run.code(), run.out() + run.err());
    assertTrue(run.out().endsWith("result: OK" + System.lineSeparator()), run.out());
  }

  @Test
  void intervalsHoldTheirBusyKernelsAndAddUp() {
    double first = interval("start  -> middle");
    double second = interval("middle -> end");
    double total = interval("start  -> end");
    assertTrue(first >= 5, "first " + first);
    assertTrue(second >= 10, "second " + second);
    assertEquals(first + second, total, 0.002);
    assertEquals(-total, interval("end    -> start"), 0.0);
  }

  @Test
  void eachOfTheFiveMistakesIsCaughtWithItsOwnError() {
    List<String> expected =
        List.of(
            "  1. events of two device types (openreg and toyreg)\n"
                + "     -> IllegalArgumentException: ",
            "does not match other's device type",
            "  2. an event created without enable_timing\n     -> IllegalArgumentException: ",
            "must be created with enable_timing",
            "  3. an event that was never recorded\n     -> IllegalStateException: ",
            "must be recorded before calculating elapsed time",
            "  4. an event whose work is still running (no synchronize first)\n"
                + "     -> IllegalStateException: ",
            "must be completed before calculating elapsed time",
            "  5. events recorded on two devices (openreg:0 and openreg:1)\n"
                + "     -> IllegalArgumentException: ",
            "must be recorded on the same device");
    String out = run.out().replace(System.lineSeparator(), "\n");
    int from = 0;
    for (String part : expected) {
      int at = out.indexOf(part, from);
      assertTrue(at >= 0, "'" + part + "' missing (in order) from:\n" + out);
      from = at + part.length();
    }
    assertTrue(!out.contains("UNEXPECTED"), out);
  }

  @Test
  void negativeBusyTimeIsRejected() throws Exception {
    SampleRun.of(TimingSample::run, "--busy-ms", "-1")
        .assertUsageError("timing", "--busy-ms expects a positive integer, got '-1'");
  }

  @Test
  void strayArgumentIsRejected() throws Exception {
    SampleRun.of(TimingSample::run, "fast")
        .assertUsageError("timing", "unexpected argument 'fast'");
  }
}
