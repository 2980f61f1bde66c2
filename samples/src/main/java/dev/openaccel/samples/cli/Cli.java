package dev.openaccel.samples.cli;

import java.io.PrintStream;

/** Runs a sample's body with parsed flags and turns user mistakes into exit code 2. */
public final class Cli {
  /** The sample ran and its result checked out. */
  public static final int OK = 0;

  /** The sample ran but its result was wrong. */
  public static final int FAILED = 1;

  /** The sample was invoked wrongly; nothing ran. */
  public static final int USAGE = 2;

  private Cli() {}

  /** What a sample does once its flags are parsed; returns the exit code. */
  @FunctionalInterface
  public interface Body {
    /**
     * Runs the sample.
     *
     * @throws UsageException for a mistake only found late (e.g. more devices than available)
     */
    int run(Flags.Values values) throws Exception;
  }

  /**
   * Parses {@code args} against {@code flags} and runs {@code body}. {@code --help} prints the
   * usage to {@code out} and returns {@link #OK}; a {@link UsageException} prints one line and the
   * usage to {@code err} and returns {@link #USAGE}. Any other exception is a failure of the sample
   * and propagates.
   */
  public static int run(Flags flags, String[] args, PrintStream out, PrintStream err, Body body)
      throws Exception {
    try {
      Flags.Values values = flags.parse(args);
      if (values.help()) {
        out.println(flags.usage());
        return OK;
      }
      return body.run(values);
    } catch (UsageException e) {
      err.println(flags.command() + ": " + e.getMessage());
      err.println(flags.usage());
      return USAGE;
    }
  }
}
