package dev.openaccel.cluster.sample;

import com.typesafe.config.Config;
import dev.openaccel.cluster.ClusterAccelerator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Leave;

/**
 * One node of the distributed sample, a JVM of its own: {@code PipelineNode <index> [--base-port
 * 25520] [--batches 16] [--longs 65536]}. Node 0 is the seed and drives the pipeline; nodes 1 and 2
 * serve their devices until node 0 makes them leave. {@code cluster/run-sample} starts all three.
 */
public final class PipelineNode {
  private PipelineNode() {}

  public static void main(String[] args) throws Exception {
    int index = Integer.parseInt(args[0]);
    int basePort = 25520;
    int batches = 16;
    int longs = 65536;
    for (int i = 1; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--base-port" -> basePort = Integer.parseInt(args[i + 1]);
        case "--batches" -> batches = Integer.parseInt(args[i + 1]);
        case "--longs" -> longs = Integer.parseInt(args[i + 1]);
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    Address driverAddress = Address.apply("pekko", "openaccel", "127.0.0.1", basePort);
    ActorSystem<Void> system =
        ActorSystem.create(
            index == 0 ? Behaviors.empty() : SampleNode.stopWhenRemoved(driverAddress),
            "openaccel",
            config(basePort, index));
    ClusterAccelerator node = ClusterAccelerator.get(system);
    new PipelineKernels().registerOn(node.kernels());
    if (index != 0) {
      System.out.println("node " + index + " serving " + node.selfNode());
      system.getWhenTerminated().toCompletableFuture().get(10, TimeUnit.MINUTES);
      return;
    }
    boolean ok = false;
    try {
      if (!node.awaitNodes(3, Duration.ofSeconds(60))) {
        throw new IllegalStateException("the other two nodes did not join within 60 s");
      }
      List<String> nodes = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        nodes.add("pekko://openaccel@127.0.0.1:" + (basePort + i));
      }
      ok = new DistributedPipeline(node, nodes, batches, longs).run(System.out);
    } finally {
      Cluster cluster = Cluster.get(system);
      for (int i = 1; i < 3; i++) {
        cluster
            .manager()
            .tell(Leave.create(Address.apply("pekko", "openaccel", "127.0.0.1", basePort + i)));
      }
      cluster.manager().tell(Leave.create(cluster.selfMember().address()));
      system.getWhenTerminated().toCompletableFuture().get(60, TimeUnit.SECONDS);
    }
    System.exit(ok ? 0 : 1);
  }

  private static Config config(int basePort, int index) {
    return SampleNode.config(
        basePort + index,
        """
        pekko.cluster.seed-nodes = ["pekko://openaccel@127.0.0.1:%d"]
        pekko.cluster.split-brain-resolver.stable-after = 5s
        """
            .formatted(basePort));
  }
}
