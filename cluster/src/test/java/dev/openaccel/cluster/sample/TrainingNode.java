package dev.openaccel.cluster.sample;

import dev.openaccel.cluster.ClusterAccelerator;
import java.time.Duration;
import java.time.LocalTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.AddressFromURIString;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Join;
import org.apache.pekko.cluster.typed.Leave;

/**
 * One JVM of the data-parallel training sample ({@code cluster/run-training} starts them):
 *
 * <pre>
 *   TrainingNode driver [--port 25530] [--workers 3] [--steps 200] [--features 64] [--samples 4096]
 *                       [--batch 128] [--learning-rate 0.5] [--seed 42] [--kill-worker-at STEP]
 *   TrainingNode worker --driver pekko://openaccel@127.0.0.1:25530 [--port 0] [--workers 3]
 * </pre>
 *
 * The driver is the seed node and rank 0 (it trains a shard too); each worker joins it. Once all
 * {@code workers + 1} nodes are up, the members are the driver then the other nodes in sorted
 * order. The driver prints the report and exits 0 only if the weights are bit-identical to the
 * single-process run, then makes the workers leave; a worker exits 0 once it trained every step and
 * left. Any failure prints {@code "training failed ..."} (where, and why: the lost node, the
 * operation) and exits 1. {@code --kill-worker-at STEP} has the last worker halt its JVM ({@code
 * Runtime.halt(137)}, no shutdown hooks, no leave: what {@code kill -9} does) when its stream
 * finished the steps before STEP. Port 0 takes any free port; each node prints its address.
 */
public final class TrainingNode {
  /** The exit status of a worker told to halt, as a shell reports a process killed by SIGKILL. */
  public static final int HALTED = 137;

  private static final Duration JOIN = Duration.ofSeconds(60);
  private static final Duration STOP = Duration.ofSeconds(15);
  private static final String CONFIG =
      "pekko.cluster.split-brain-resolver.stable-after = 2s\n"
          + "pekko.coordinated-shutdown.run-by-jvm-shutdown-hook = off\n";

  private static final List<String> DRIVER_OPTIONS =
      List.of(
          "--port",
          "--workers",
          "--steps",
          "--features",
          "--samples",
          "--batch",
          "--learning-rate",
          "--seed",
          "--kill-worker-at");
  private static final List<String> WORKER_OPTIONS = List.of("--driver", "--port", "--workers");

  private TrainingNode() {}

  /** Runs a driver or a worker, then exits the JVM with its status (2: bad arguments). */
  public static void main(String[] args) {
    int status;
    try {
      status = run(args);
    } catch (IllegalArgumentException misuse) {
      System.err.println("TrainingNode: " + misuse.getMessage());
      status = 2;
    } catch (RuntimeException failure) { // the node could not start, e.g. its port is taken
      System.out.println("training failed: " + failure);
      status = 1;
    }
    System.exit(status);
  }

  private static int run(String[] args) {
    boolean driver = args.length > 0 && args[0].equals("driver");
    if (!driver && !(args.length > 0 && args[0].equals("worker"))) {
      throw new IllegalArgumentException("usage: TrainingNode driver|worker [--option value]...");
    }
    Map<String, String> options = options(args, driver ? DRIVER_OPTIONS : WORKER_OPTIONS);
    int workers = Integer.parseInt(options.getOrDefault("--workers", "3"));
    if (workers < 1 || workers > 255) {
      throw new IllegalArgumentException("--workers must be 1 to 255, got " + workers);
    }
    TrainingSettings settings = driver ? settings(options, workers) : null;
    int port = Integer.parseInt(options.getOrDefault("--port", driver ? "25530" : "0"));
    Address seed = driver ? null : AddressFromURIString.parse(required(options, "--driver"));
    ActorSystem<Void> system =
        ActorSystem.create(
            driver ? Behaviors.empty() : SampleNode.stopWhenRemoved(seed),
            "openaccel",
            SampleNode.config(port, CONFIG));
    Cluster cluster = Cluster.get(system);
    cluster.manager().tell(Join.create(driver ? cluster.selfMember().address() : seed));
    ClusterAccelerator node = ClusterAccelerator.get(system);
    System.out.println((driver ? "driver" : "worker") + " node " + node.selfNode());
    int status = 1;
    try {
      if (!node.awaitNodes(workers + 1, JOIN)) {
        throw new IllegalStateException(
            (workers + 1) + " nodes did not join within " + JOIN + ": " + node.nodes());
      }
      List<String> nodes = members(node, driver ? node.selfNode() : seed.toString());
      DataParallelTraining training = new DataParallelTraining(node, nodes);
      if (driver) {
        TrainingResult result = training.drive(settings);
        boolean ok =
            TrainingReport.print(result, TrainingReference.run(settings, nodes.size()), System.out);
        nodes.forEach(member -> cluster.manager().tell(Leave.create(address(member))));
        status = ok ? 0 : 1;
      } else {
        TrainingResult result = training.follow(TrainingNode::halt);
        System.out.printf(
            "rank %d: %d steps done, final weights CRC32 %s%n",
            result.rank(), result.settings().steps(), result.checksum());
        // The driver makes every member leave once all have the weights: this node then stops.
        await(system, Duration.ofSeconds(60));
        status = 0;
      }
    } catch (RuntimeException failure) {
      System.out.println(
          failure instanceof TrainingFailure
              ? failure.getMessage()
              : "training failed: " + failure);
    } finally {
      system.terminate();
      await(system, STOP);
    }
    System.out.flush();
    return status;
  }

  private static void await(ActorSystem<Void> system, Duration timeout) {
    try {
      system
          .getWhenTerminated()
          .toCompletableFuture()
          .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      System.out.println(system.address() + " did not stop within " + timeout + ": " + e);
    }
  }

  /** The driver first, then the other nodes in sorted order. */
  private static List<String> members(ClusterAccelerator node, String driver) {
    List<String> members = new ArrayList<>(List.of(driver));
    for (String other : node.nodes()) {
      if (!other.equals(driver)) {
        members.add(other);
      }
    }
    return members;
  }

  private static TrainingSettings settings(Map<String, String> options, int workers) {
    TrainingSettings d = TrainingSettings.defaults();
    TrainingSettings settings =
        new TrainingSettings(
            Integer.parseInt(options.getOrDefault("--steps", "" + d.steps())),
            Integer.parseInt(options.getOrDefault("--features", "" + d.features())),
            Integer.parseInt(options.getOrDefault("--samples", "" + d.samples())),
            Integer.parseInt(options.getOrDefault("--batch", "" + d.batch())),
            Long.parseLong(options.getOrDefault("--seed", "" + d.seed())),
            Double.parseDouble(options.getOrDefault("--learning-rate", "" + d.learningRate())),
            -1,
            0);
    String kill = options.get("--kill-worker-at");
    return kill == null ? settings : settings.withHalt(workers, Integer.parseInt(kill));
  }

  private static void halt(int step) {
    System.out.printf(
        "halting this JVM at step %d (%s): Runtime.halt(%d), as kill -9 would end it%n",
        step, LocalTime.now().truncatedTo(ChronoUnit.MILLIS), HALTED);
    System.out.flush();
    Runtime.getRuntime().halt(HALTED);
  }

  private static Address address(String node) {
    return AddressFromURIString.parse(node);
  }

  private static Map<String, String> options(String[] args, List<String> known) {
    if (args.length % 2 == 0) {
      throw new IllegalArgumentException("every option needs a value: " + List.of(args));
    }
    Map<String, String> options = new HashMap<>();
    for (int i = 1; i < args.length; i += 2) {
      if (!known.contains(args[i])) {
        throw new IllegalArgumentException(
            "unknown option " + args[i] + " for the " + args[0] + "; known: " + known);
      }
      options.put(args[i], args[i + 1]);
    }
    return options;
  }

  private static String required(Map<String, String> options, String name) {
    String value = options.get(name);
    if (value == null) {
      throw new IllegalArgumentException("a worker needs " + name + " <the driver's address>");
    }
    return value;
  }
}
