package dev.openaccel.samples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.samples.SampleRun;
import org.junit.jupiter.api.Test;

/** Flag parsing, usage text, and how {@link Cli} turns mistakes into exit code 2. */
class FlagsTest {
  private static final Flags FLAGS =
      Flags.of("demo", "A demo.")
          .integer("--size", "N", 8, "a size")
          .text("--out", "DIR", "target/x", "a directory");

  private static void assertRejected(String phrase, String... args) {
    UsageException e = assertThrows(UsageException.class, () -> FLAGS.parse(args));
    assertTrue(e.getMessage().contains(phrase), e.getMessage());
  }

  @Test
  void unsetFlagsHaveTheirDefaults() {
    Flags.Values values = FLAGS.parse(new String[0]);
    assertEquals(8, values.integer("--size"));
    assertEquals("target/x", values.text("--out"));
    assertFalse(values.help());
  }

  @Test
  void valuesComeAfterTheFlagOrAfterAnEqualsSign() {
    assertEquals(12, FLAGS.parse(new String[] {"--size", "12"}).integer("--size"));
    assertEquals(13, FLAGS.parse(new String[] {"--size=13"}).integer("--size"));
    assertEquals("a=b", FLAGS.parse(new String[] {"--out=a=b"}).text("--out"));
  }

  @Test
  void helpIsRecognisedAnywhere() {
    assertTrue(FLAGS.parse(new String[] {"--size", "3", "--help"}).help());
    assertTrue(FLAGS.parse(new String[] {"-h"}).help());
  }

  @Test
  void unknownFlagIsRejected() {
    assertRejected("unknown flag '--sise'", "--sise", "3");
  }

  @Test
  void missingValueIsRejected() {
    assertRejected("--size needs a value (N)", "--size");
  }

  @Test
  void nonNumericValueIsRejected() {
    assertRejected("--size expects a positive integer, got 'abc'", "--size", "abc");
  }

  @Test
  void zeroAndNegativeNumbersAreRejected() {
    assertRejected("--size expects a positive integer, got '0'", "--size", "0");
    assertRejected("--size expects a positive integer, got '-4'", "--size=-4");
  }

  @Test
  void strayArgumentIsRejected() {
    assertRejected("unexpected argument 'extra'", "extra");
  }

  @Test
  void undeclaredFlagIsAProgrammingError() {
    Flags.Values values = FLAGS.parse(new String[0]);
    assertThrows(IllegalArgumentException.class, () -> values.text("--nope"));
  }

  @Test
  void usageNamesEveryFlagWithItsDefault() {
    String usage = FLAGS.usage();
    assertTrue(usage.startsWith("usage: demo [--size N] [--out DIR]\n  A demo."), usage);
    assertTrue(usage.contains("\n  --size N   a size (default 8)"), usage);
    assertTrue(usage.contains("\n  --out DIR  a directory (default target/x)"), usage);
    assertTrue(usage.contains("\n  --help     show this help"), usage);
  }

  @Test
  void cliPrintsHelpToOutAndExitsZero() throws Exception {
    SampleRun run =
        SampleRun.of((args, out, err) -> Cli.run(FLAGS, args, out, err, v -> 7), "--help");
    assertEquals(0, run.code());
    assertEquals(FLAGS.usage() + System.lineSeparator(), run.out());
  }

  @Test
  void cliReturnsTheBodysCode() throws Exception {
    SampleRun run =
        SampleRun.of((args, out, err) -> Cli.run(FLAGS, args, out, err, v -> 7), "--size", "2");
    assertEquals(7, run.code());
  }

  @Test
  void cliTurnsALateUsageExceptionIntoExitCodeTwo() throws Exception {
    SampleRun run =
        SampleRun.of(
            (args, out, err) ->
                Cli.run(
                    FLAGS,
                    args,
                    out,
                    err,
                    v -> {
                      throw new UsageException("--size " + v.integer("--size") + " is too odd");
                    }),
            "--size",
            "3");
    run.assertUsageError("demo", "--size 3 is too odd");
  }

  @Test
  void cliLetsOtherFailuresPropagate() {
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () ->
                SampleRun.of(
                    (args, out, err) ->
                        Cli.run(
                            FLAGS,
                            args,
                            out,
                            err,
                            v -> {
                              throw new IllegalStateException("a bug");
                            })));
    assertEquals("a bug", e.getMessage());
  }
}
