package dev.openaccel.samples.timing;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.Stream;
import dev.openaccel.samples.cli.Cli;
import dev.openaccel.samples.cli.Flags;
import java.io.PrintStream;

/**
 * {@code Event.elapsedTime} used right, around busy kernels, then used wrong in each of the five
 * ways it rejects ({@link ElapsedTimeMisuse}).
 *
 * <p>Timing events measure the device clock at the moment a stream reaches them, so the interval
 * between two events on one stream is the time the work between them took, whatever the host did
 * meanwhile.
 */
public final class TimingSample {
  /** The accelerator of this sample also enables the toy backend, for a second device type. */
  private static final Config CONFIG =
      ConfigFactory.parseString(
          "openaccel.system-name = timing\n"
              + "openaccel.disabled-backends = [opencl]\n"
              + "openaccel.default-device-type = openreg");

  /** The flags, with their defaults. */
  public static final Flags FLAGS =
      Flags.of(
              "timing",
              "Event.elapsedTime around busy kernels, and the five errors it raises when used"
                  + " wrong.")
          .integer(
              "--busy-ms", "MS", 20, "how long the first busy kernel spins (the second: twice)");

  private TimingSample() {}

  /** Runs with command-line flags; returns the exit code. */
  public static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
    return Cli.run(FLAGS, args, out, err, values -> run(values.integer("--busy-ms"), out));
  }

  /**
   * Runs both parts: {@link Cli#OK} if the intervals hold their kernels and every misuse is caught.
   */
  static int run(int busyMs, PrintStream out) throws Exception {
    try (Accelerator accelerator = Accelerator.start(CONFIG)) {
      boolean measured = measure(accelerator, busyMs, out);
      boolean rejected = ElapsedTimeMisuse.run(accelerator, out);
      out.println("result: " + (measured && rejected ? "OK" : "UNEXPECTED"));
      return measured && rejected ? Cli.OK : Cli.FAILED;
    }
  }

  /** Two busy kernels between three timing events on one stream; true if the intervals add up. */
  static boolean measure(Accelerator accelerator, int busyMs, PrintStream out) {
    Device device = Device.of(accelerator.currentAccelerator(), 0);
    Stream stream = accelerator.newStream(device);
    Event start = accelerator.newEvent(EventOptions.timing());
    Event middle = accelerator.newEvent(EventOptions.timing());
    Event end = accelerator.newEvent(EventOptions.timing());
    long hostStart = System.nanoTime();
    start.record(stream);
    stream.launch("busy " + busyMs + " ms", busy(busyMs));
    middle.record(stream);
    stream.launch("busy " + 2 * busyMs + " ms", busy(2 * busyMs));
    end.record(stream);
    end.synchronize(); // elapsedTime needs both events completed
    double hostMs = (System.nanoTime() - hostStart) / 1e6;

    double first = start.elapsedTime(middle);
    double second = middle.elapsedTime(end);
    double total = start.elapsedTime(end);
    out.printf(
        "elapsedTime on %s: busy kernels of %d ms and %d ms between three timing events%n",
        device, busyMs, 2 * busyMs);
    out.printf("  start  -> middle %8.3f ms%n", first);
    out.printf("  middle -> end    %8.3f ms%n", second);
    out.printf(
        "  start  -> end    %8.3f ms (= %.3f + %.3f), as a Duration %s%n",
        total, first, second, start.elapsed(end));
    out.printf(
        "  end    -> start  %8.3f ms (swapping the events negates it)%n", end.elapsedTime(start));
    out.printf("  host wall time   %8.3f ms (also counts the enqueues and the wait)%n", hostMs);
    boolean ok = first >= busyMs && second >= 2 * busyMs && Math.abs(total - first - second) < 1e-3;
    out.println(
        ok
            ? "  each interval holds its kernel, and the intervals add up"
            : "  UNEXPECTED: an interval is shorter than its kernel, or they do not add up");
    start.close();
    middle.close();
    end.close();
    return ok;
  }

  /** A kernel that keeps its device thread busy for {@code millis}. */
  static Runnable busy(long millis) {
    return () -> {
      long until = System.nanoTime() + millis * 1_000_000;
      while (System.nanoTime() < until) {
        Thread.onSpinWait();
      }
    };
  }
}
