package dev.openaccel.samples.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The progress line: silent on short runs, rewritten in place with a carriage return on a terminal,
 * plain throttled lines elsewhere.
 */
class ProgressTest {
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);

  private String printed() {
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void aShortRunPrintsNothing() {
    Progress progress = Progress.inPlace(err, Duration.ofHours(1));
    progress.show("multiply", 1, 4, "tile products");
    progress.clear();
    assertEquals("", printed());
  }

  @Test
  void aLongRunDrawsOneLineAndErasesIt() {
    Progress progress = Progress.inPlace(err, Duration.ZERO);
    progress.show("multiply", 1, 4, "tile products");
    String line = printed();
    assertTrue(line.startsWith("\r  multiply: 1/4 tile products (25%), "), line);
    assertTrue(line.endsWith(" s") && !line.contains("\n"), line);
    progress.clear();
    String erased = printed().substring(line.length());
    assertEquals("\r" + " ".repeat(line.length() - 1) + "\r", erased);
  }

  @Test
  void redrawsAreThrottled() {
    Progress progress = Progress.inPlace(err, Duration.ZERO);
    progress.show("multiply", 1, 4, "tile products");
    progress.show("multiply", 2, 4, "tile products"); // within 100 ms of the first: skipped
    assertEquals(1, printed().chars().filter(c -> c == '\r').count(), printed());
  }

  @Test
  void offATerminalEachReportIsAPlainLineWithoutCarriageReturns() {
    Progress progress = Progress.plain(err, Duration.ZERO, Duration.ZERO);
    progress.show("reference", 1, 4, "rows");
    progress.show("reference", 2, 4, "rows");
    progress.clear();
    String[] lines = printed().split("\n", -1);
    assertEquals(3, lines.length, printed()); // two lines, each ended
    assertTrue(lines[0].startsWith("  reference: 1/4 rows (25%), "), lines[0]);
    assertTrue(lines[1].startsWith("  reference: 2/4 rows (50%), "), lines[1]);
    assertEquals("", lines[2]);
    assertFalse(printed().contains("\r"), printed());
  }

  @Test
  void plainLinesComeAtMostOncePerInterval() {
    Progress progress = Progress.plain(err, Duration.ZERO, Duration.ofHours(1));
    for (int row = 1; row <= 100; row++) {
      progress.show("reference", row, 100, "rows");
    }
    assertEquals(1, printed().lines().count(), printed());
  }

  @Test
  void offATerminalTheDefaultProgressIsPlainLines() {
    assumeFalse(Progress.onTerminal(), "run from a terminal: nothing to check here");
    assertFalse(Progress.of(err).inPlace());
    assertTrue(Progress.inPlace(err, Duration.ZERO).inPlace());
  }
}
