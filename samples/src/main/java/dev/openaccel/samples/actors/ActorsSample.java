package dev.openaccel.samples.actors;

import dev.openaccel.samples.cli.ActorSystems;
import dev.openaccel.samples.cli.Cli;
import dev.openaccel.samples.cli.Flags;
import dev.openaccel.samples.cli.UsageException;
import java.io.PrintStream;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * Actors driving streams with messages: a producer and a consumer, each with its own device context
 * ({@code DeviceBehaviors.withDeviceContext}), hand batches over with events; results come back
 * through {@code pipeToSelf} on {@code Stream.submit} and {@code Event.completion()} stages; an
 * observer prints what the trace bus and {@code Event.subscribe} report. The accelerator is the
 * extension of the sample's own actor system.
 */
public final class ActorsSample {
  /** Keeps the total of squares within a {@code long}. */
  private static final long MAX_NUMBERS = 2_000_000;

  /** The flags, with their defaults. */
  public static final Flags FLAGS =
      Flags.of(
              "actors",
              "Actors drive streams with messages, events and pipeToSelf across two devices; an"
                  + " observer prints what it sees.")
          .integer("--batches", "N", 4, "batches the producer hands to the consumer")
          .integer("--batch-size", "M", 250_000, "numbers per batch");

  private ActorsSample() {}

  /** Runs with command-line flags; returns the exit code. */
  public static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
    return Cli.run(
        FLAGS,
        args,
        out,
        err,
        values -> run(values.integer("--batches"), values.integer("--batch-size"), out));
  }

  /** Runs the exchange: {@link Cli#OK} if the consumer's total is the sum of squares 1..N*M. */
  static int run(int batches, int size, PrintStream out) throws Exception {
    long numbers = (long) batches * size;
    if (numbers > MAX_NUMBERS) {
      throw new UsageException(
          "--batches x --batch-size is "
              + numbers
              + ", at most "
              + MAX_NUMBERS
              + " keep the sum in a long");
    }
    CompletableFuture<Coordinator.Summary> result = new CompletableFuture<>();
    ActorSystem<Coordinator.Command> system =
        ActorSystems.start(Coordinator.create(batches, size, out, result), "actors");
    try {
      Coordinator.Summary summary = result.get(60, TimeUnit.SECONDS);
      long expected = numbers * (numbers + 1) * (2 * numbers + 1) / 6;
      boolean match = summary.total() == expected;
      out.printf("observer saw %d kernels finish%n", summary.kernelsSeen());
      out.printf(
          "result: %s (consumer total %d over %d batches, expected %d = sum of v^2 for v = 1..%d)%n",
          match ? "MATCH" : "MISMATCH", summary.total(), summary.batches(), expected, numbers);
      return match ? Cli.OK : Cli.FAILED;
    } finally {
      ActorSystems.stop(system);
    }
  }
}
