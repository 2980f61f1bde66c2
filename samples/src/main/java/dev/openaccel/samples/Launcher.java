package dev.openaccel.samples;

import dev.openaccel.samples.actors.ActorsSample;
import dev.openaccel.samples.cli.Cli;
import dev.openaccel.samples.cli.Flags;
import dev.openaccel.samples.pipeline.PipelineOptions;
import dev.openaccel.samples.pipeline.PipelineSample;
import dev.openaccel.samples.quickstart.Quickstart;
import dev.openaccel.samples.timing.TimingSample;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Runs a sample by name: {@code Launcher [sample] [flags...]}. Without a sample name (no arguments,
 * or flags only) it runs {@value #DEFAULT}; {@code --help} lists the samples.
 */
public final class Launcher {

  /** A runnable sample: takes its flags, prints to {@code out}, returns the process exit code. */
  @FunctionalInterface
  interface Sample {
    int run(String[] args, PrintStream out, PrintStream err) throws Exception;
  }

  /** A sample's flags (for its name, summary and usage) and its entry point. */
  private record Entry(Flags flags, Sample sample) {}

  /** The sample run when no name is given. */
  static final String DEFAULT = "pipeline";

  private static final Map<String, Entry> SAMPLES = new LinkedHashMap<>();

  static {
    register(PipelineOptions.FLAGS, PipelineSample::run);
    register(ActorsSample.FLAGS, ActorsSample::run);
    register(TimingSample.FLAGS, TimingSample::run);
    register(Quickstart.FLAGS, Quickstart::run);
  }

  private Launcher() {}

  private static void register(Flags flags, Sample sample) {
    SAMPLES.put(flags.command(), new Entry(flags, sample));
  }

  /**
   * Runs the sample and exits with its code; an unexpected failure prints its stack trace, exit 1.
   */
  public static void main(String[] args) {
    int code;
    try {
      code = run(args, System.out, System.err);
    } catch (Exception e) {
      System.err.println("the sample failed:");
      e.printStackTrace();
      code = Cli.FAILED;
    }
    System.out.flush();
    System.exit(code);
  }

  /** The launcher without {@code System.exit}, for tests. */
  static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
    if (args.length > 0 && (args[0].equals("--help") || args[0].equals("-h"))) {
      out.println(usage());
      return Cli.OK;
    }
    boolean named = args.length > 0 && !args[0].startsWith("-");
    String name = named ? args[0] : DEFAULT;
    Entry entry = SAMPLES.get(name);
    if (entry == null) {
      err.println("unknown sample '" + name + "'");
      err.println(usage());
      return Cli.USAGE;
    }
    return entry.sample().run(Arrays.copyOfRange(args, named ? 1 : 0, args.length), out, err);
  }

  /** The sample names, in listing order. */
  static Set<String> names() {
    return SAMPLES.keySet();
  }

  static String usage() {
    StringBuilder text =
        new StringBuilder("usage: [sample] [flags]   (no sample name: " + DEFAULT + ")\nsamples:");
    int width = SAMPLES.keySet().stream().mapToInt(String::length).max().orElse(0);
    SAMPLES.forEach(
        (name, entry) ->
            text.append(String.format("\n  %-" + width + "s  %s", name, entry.flags().summary())));
    text.append("\n\nflags of ")
        .append(SAMPLES.get(DEFAULT).flags().usage().substring("usage: ".length()))
        .append("\n\nEach sample takes --help. With Maven:")
        .append("\n  mvn -q -B -DskipTests package exec:java -Dexec.args=\"<sample> [flags]\"");
    return text.toString();
  }
}
