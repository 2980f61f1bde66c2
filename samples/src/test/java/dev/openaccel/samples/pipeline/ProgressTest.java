package dev.openaccel.samples.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The progress line: silent on short runs, rewritten in place with a carriage return. */
class ProgressTest {
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);

  private String printed() {
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void aShortRunPrintsNothing() {
    Progress progress = new Progress(err, Duration.ofHours(1));
    progress.show("multiply", 1, 4, "tile products");
    progress.clear();
    assertEquals("", printed());
  }

  @Test
  void aLongRunDrawsOneLineAndErasesIt() {
    Progress progress = new Progress(err, Duration.ZERO);
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
    Progress progress = new Progress(err, Duration.ZERO);
    progress.show("multiply", 1, 4, "tile products");
    progress.show("multiply", 2, 4, "tile products"); // within 100 ms of the first: skipped
    assertEquals(1, printed().chars().filter(c -> c == '\r').count(), printed());
  }
}
