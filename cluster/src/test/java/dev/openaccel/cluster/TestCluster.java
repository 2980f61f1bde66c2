package dev.openaccel.cluster;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.openaccel.testkit.NodeFaults;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Join;

/**
 * Several cluster nodes in this JVM: actor systems on 127.0.0.1 with Artery port 0, the first one
 * the seed the others join, each with its own accelerator (two OpenReg devices) and the {@link
 * TestKernels}.
 */
final class TestCluster implements AutoCloseable {
  static final Duration WAIT = Duration.ofSeconds(20);

  /** The settings every test node shares; tests add to them. */
  static final String BASE =
      """
      pekko.actor.provider = cluster
      pekko.remote.artery.canonical.hostname = "127.0.0.1"
      pekko.remote.artery.canonical.port = 0
      pekko.cluster.jmx.multi-mbeans-in-same-jvm = on
      pekko.cluster.downing-provider-class = "org.apache.pekko.cluster.sbr.SplitBrainResolverProvider"
      pekko.cluster.split-brain-resolver.stable-after = 2s
      pekko.cluster.gossip-interval = 200ms
      pekko.cluster.leader-actions-interval = 200ms
      pekko.coordinated-shutdown.run-by-jvm-shutdown-hook = off
      pekko.loglevel = WARNING
      pekko.log-dead-letters = off
      pekko.log-dead-letters-during-shutdown = off
      openaccel.openreg.device-count = 2
      """;

  /** The extra configuration that lets {@link NodeFaults} cut the network between nodes. */
  static final String TEST_MODE = NodeFaults.TEST_MODE + " = on\n";

  private final List<ActorSystem<Void>> systems = new ArrayList<>();

  private TestCluster() {}

  /** Starts {@code size} nodes named "openaccel" and waits until each knows all of them. */
  static TestCluster start(int size, String extraConfig) {
    TestCluster cluster = new TestCluster();
    Config config =
        ConfigFactory.parseString(extraConfig)
            .withFallback(ConfigFactory.parseString(BASE))
            .withFallback(ConfigFactory.load())
            .resolve();
    try {
      for (int i = 0; i < size; i++) {
        ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), "openaccel", config);
        cluster.systems.add(system);
        Cluster.get(system).manager().tell(Join.create(cluster.systems.get(0).address()));
      }
      for (int i = 0; i < size; i++) {
        TestKernels.registerOn(cluster.node(i), i);
      }
      for (ActorSystem<Void> system : cluster.systems) {
        assertTrue(
            ClusterAccelerator.get(system).awaitNodes(size, WAIT),
            () -> system.address() + " did not see " + size + " nodes");
      }
    } catch (RuntimeException | Error e) {
      cluster.close();
      throw e;
    }
    return cluster;
  }

  static TestCluster start(int size) {
    return start(size, "");
  }

  ClusterAccelerator node(int i) {
    return ClusterAccelerator.get(systems.get(i));
  }

  ActorSystem<Void> system(int i) {
    return systems.get(i);
  }

  /**
   * The faults between this cluster's nodes; cutting the network needs {@link #TEST_MODE} in the
   * extra configuration.
   */
  NodeFaults faults() {
    return NodeFaults.of(systems);
  }

  /** The first device of node {@code i}, as the other nodes name it. */
  RemoteDevice device(int i, int index) {
    return RemoteDevice.parse(node(i).selfNode() + "/openreg:" + index);
  }

  /** Terminates node {@code i} and waits (bounded) until it has stopped. */
  void terminate(int i) {
    ActorSystem<Void> system = systems.get(i);
    system.terminate();
    try {
      system.getWhenTerminated().toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError(system.address() + " did not terminate", e);
    }
  }

  @Override
  public void close() {
    for (ActorSystem<Void> system : systems) {
      system.terminate();
    }
    for (ActorSystem<Void> system : systems) {
      try {
        system.getWhenTerminated().toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS);
      } catch (Exception e) {
        throw new AssertionError(system.address() + " did not terminate", e);
      }
    }
  }
}
