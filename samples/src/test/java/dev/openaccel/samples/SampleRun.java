package dev.openaccel.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * One run of a sample's entry point with its output captured.
 *
 * @param code the exit code it returned
 * @param out what it printed to its {@code out} stream
 * @param err what it printed to its {@code err} stream
 */
public record SampleRun(int code, String out, String err) {

  /** A sample entry point: {@code run(args, out, err)}. */
  @FunctionalInterface
  public interface Entry {
    int run(String[] args, PrintStream out, PrintStream err) throws Exception;
  }

  /** Runs {@code entry} with {@code args}. */
  public static SampleRun of(Entry entry, String... args) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      int code = entry.run(args, o, e);
      return new SampleRun(
          code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
  }

  /**
   * Asserts a user mistake: exit code 2, nothing on {@code out}, a first line on {@code err} that
   * names the sample and contains {@code phrase}, then the sample's usage, and no stack trace.
   */
  public void assertUsageError(String sample, String phrase) {
    assertEquals(2, code, "exit code; err was:\n" + err);
    assertEquals("", out, "a rejected invocation runs nothing");
    String first = err.lines().findFirst().orElse("");
    assertTrue(first.startsWith(sample + ": "), "first line: " + first);
    assertTrue(first.contains(phrase), "first line: " + first);
    assertTrue(err.contains("usage: " + sample), "usage missing from:\n" + err);
    assertFalse(err.contains("Exception") || err.contains("\tat "), "stack trace in:\n" + err);
  }
}
