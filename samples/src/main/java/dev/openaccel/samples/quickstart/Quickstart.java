package dev.openaccel.samples.quickstart;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.Stream;
import dev.openaccel.samples.cli.Cli;
import dev.openaccel.samples.cli.Flags;
import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicLong;

/** The README's example: two streams, one event between them, and a timed interval. */
public final class Quickstart {
  /** The sample takes no flags but {@code --help}. */
  public static final Flags FLAGS =
      Flags.of(
          "quickstart", "The README's first program: two streams, one event, a timed interval.");

  private Quickstart() {}

  /**
   * Runs the example on an accelerator of its own; {@link Cli#OK} if the consumer saw the right
   * value.
   */
  public static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
    return Cli.run(
        FLAGS,
        args,
        out,
        err,
        values -> {
          try (Accelerator accelerator = Accelerator.start()) {
            long consumed = run(accelerator, out);
            return consumed == sumOfSquares(2_000_000) % 1_000_003 ? Cli.OK : Cli.FAILED;
          }
        });
  }

  /** Runs the example, printing to {@code out}; returns the value the consumer computed. */
  public static long run(Accelerator accelerator, PrintStream out) {
    Device device = accelerator.currentDevice(); // openreg:0
    Stream producer = accelerator.newStream(device);
    Stream consumer = accelerator.newStream(device);
    AtomicLong produced = new AtomicLong();
    AtomicLong consumed = new AtomicLong();

    Event start = accelerator.newEvent(EventOptions.timing());
    Event ready = accelerator.newEvent(EventOptions.timing());
    start.record(producer);
    producer.launch("produce", () -> produced.set(sumOfSquares(2_000_000)));
    ready.record(producer);

    consumer.waitEvent(ready); // the consumer's next kernel waits for the producer's
    consumer.launch("consume", () -> consumed.set(produced.get() % 1_000_003));
    consumer.synchronize();

    out.printf("devices: %d x %s%n", accelerator.deviceCount(), accelerator.currentAccelerator());
    out.printf("producer: %s%nconsumer: %s%n", producer, consumer);
    out.printf("produce took %.3f ms on the device clock%n", start.elapsedTime(ready));
    out.printf(
        "consumer saw %d (expected %d)%n", consumed.get(), sumOfSquares(2_000_000) % 1_000_003);
    return consumed.get();
  }

  static long sumOfSquares(int n) {
    long sum = 0;
    for (long i = 0; i < n; i++) {
      sum += i * i;
    }
    return sum;
  }
}
