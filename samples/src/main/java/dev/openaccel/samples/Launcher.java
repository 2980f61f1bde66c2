package dev.openaccel.samples;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.samples.quickstart.Quickstart;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/** Runs a sample by name: {@code Launcher [sample] [flags...]}; {@code --help} lists them. */
public final class Launcher {

  /** A runnable sample: takes its flags, prints to {@code out}, returns the process exit code. */
  @FunctionalInterface
  interface Sample {
    int run(String[] args, PrintStream out);
  }

  private static final String DEFAULT = "quickstart";

  private static final Map<String, Sample> SAMPLES = new TreeMap<>();

  static {
    SAMPLES.put("quickstart", Launcher::quickstart);
  }

  private Launcher() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** The launcher without {@code System.exit}, for tests. */
  static int run(String[] args, PrintStream out, PrintStream err) {
    String name = args.length == 0 ? DEFAULT : args[0];
    if (name.equals("--help") || name.equals("-h")) {
      out.println(usage());
      return 0;
    }
    Sample sample = SAMPLES.get(name);
    if (sample == null) {
      err.println("unknown sample '" + name + "'");
      err.println(usage());
      return 2;
    }
    return sample.run(Arrays.copyOfRange(args, Math.min(1, args.length), args.length), out);
  }

  static String usage() {
    return "usage: Launcher [sample] [flags]\nsamples: " + String.join(", ", SAMPLES.keySet());
  }

  private static int quickstart(String[] args, PrintStream out) {
    try (Accelerator accelerator = Accelerator.start()) {
      Quickstart.run(accelerator, out);
      return 0;
    }
  }
}
