package dev.openaccel.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Join;
import org.apache.pekko.cluster.typed.SelfUp;
import org.apache.pekko.cluster.typed.Subscribe;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Faults between cluster nodes of this JVM (Artery on 127.0.0.1, no downing provider, so only the
 * test downs a node): a cut makes the two nodes unreachable to each other and drops what is sent
 * across it, a heal makes them reachable again, a downed or leaving node is removed, and every wait
 * is bounded and fails naming the nodes.
 */
class NodeFaultsTest {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final String NODE =
      """
      pekko.actor.provider = cluster
      pekko.remote.artery.canonical.hostname = "127.0.0.1"
      pekko.remote.artery.canonical.port = 0
      pekko.remote.artery.advanced.test-mode = on
      pekko.cluster.jmx.multi-mbeans-in-same-jvm = on
      pekko.cluster.gossip-interval = 200ms
      pekko.cluster.leader-actions-interval = 200ms
      pekko.coordinated-shutdown.run-by-jvm-shutdown-hook = off
      # A node still cut off at the end cannot exit the cluster: stop it without waiting 10 s.
      pekko.coordinated-shutdown.phases.cluster-exiting.timeout = 1s
      pekko.loglevel = ERROR
      pekko.log-dead-letters = off
      pekko.log-dead-letters-during-shutdown = off
      """;

  private final List<ActorSystem<Void>> systems = new ArrayList<>();

  @AfterEach
  void stopAll() throws Exception {
    systems.forEach(ActorSystem::terminate);
    for (ActorSystem<Void> system : systems) {
      system.getWhenTerminated().toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }
  }

  private ActorSystem<Void> system(String config) {
    Config full =
        ConfigFactory.parseString(config)
            .withFallback(ConfigFactory.parseString(NODE))
            .withFallback(ConfigFactory.load())
            .resolve();
    ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), "faults", full);
    systems.add(system);
    return system;
  }

  /** Starts {@code size} nodes, the first the seed, and waits until each sees all of them up. */
  private List<ActorSystem<Void>> cluster(int size) {
    List<ActorSystem<Void>> nodes = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      ActorSystem<Void> node = system("");
      nodes.add(node);
      Cluster.get(node).manager().tell(Join.create(nodes.get(0).address()));
    }
    for (ActorSystem<Void> node : nodes) {
      TestProbe<SelfUp> up = TestProbe.create(node);
      Cluster.get(node).subscriptions().tell(Subscribe.create(up.getRef(), SelfUp.class));
      up.expectMessageClass(SelfUp.class, WAIT);
    }
    NodeFaults faults = NodeFaults.of(nodes);
    for (ActorSystem<Void> observer : nodes) {
      for (ActorSystem<Void> node : nodes) {
        if (observer != node) {
          faults.awaitReachable(observer, node, WAIT);
        }
      }
    }
    return nodes;
  }

  /**
   * {@code probe}, a probe of {@code owner}, as {@code from} resolves it: sends cross the network.
   */
  private static ActorRef<String> seenFrom(
      ActorSystem<?> from, ActorSystem<?> owner, TestProbe<String> probe) {
    String path = ActorRefResolver.get(owner).toSerializationFormat(probe.getRef());
    return ActorRefResolver.get(from).resolveActorRef(path);
  }

  @Test
  void aCutMakesTheTwoNodesUnreachableToEachOtherAndAHealMakesThemReachableAgain() {
    List<ActorSystem<Void>> nodes = cluster(3);
    NodeFaults faults = NodeFaults.of(nodes);
    faults.cut(nodes.get(0), nodes.get(1));
    faults.awaitUnreachable(nodes.get(0), nodes.get(1), WAIT);
    faults.awaitUnreachable(nodes.get(1), nodes.get(0), WAIT);

    faults.heal(nodes.get(0), nodes.get(1));
    faults.awaitReachable(nodes.get(0), nodes.get(1), WAIT);
    faults.awaitReachable(nodes.get(1), nodes.get(0), WAIT);
    faults.awaitReachable(nodes.get(2), nodes.get(1), WAIT);
  }

  @Test
  void aMessageSentAcrossACutIsDroppedAndOneSentAfterTheHealArrives() {
    List<ActorSystem<Void>> nodes = cluster(2);
    NodeFaults faults = NodeFaults.of(nodes);
    TestProbe<String> probe = TestProbe.create(nodes.get(1));
    ActorRef<String> remote = seenFrom(nodes.get(0), nodes.get(1), probe);
    remote.tell("before");
    assertEquals("before", probe.expectMessageClass(String.class, WAIT));

    faults.cut(nodes.get(0), nodes.get(1));
    remote.tell("dropped");
    faults.awaitUnreachable(nodes.get(0), nodes.get(1), WAIT);
    faults.heal(nodes.get(0), nodes.get(1));
    faults.awaitReachable(nodes.get(0), nodes.get(1), WAIT);
    remote.tell("after");
    assertEquals("after", probe.expectMessageClass(String.class, WAIT), "the cut one never came");
  }

  @Test
  void anIsolatedNodeIsCutFromEveryOtherAndHealAllRejoinsIt() {
    List<ActorSystem<Void>> nodes = cluster(3);
    NodeFaults faults = NodeFaults.of(nodes);
    faults.isolate(nodes.get(2));
    faults.awaitUnreachable(nodes.get(0), nodes.get(2), WAIT);
    faults.awaitUnreachable(nodes.get(1), nodes.get(2), WAIT);
    faults.awaitUnreachable(nodes.get(2), nodes.get(0), WAIT);
    faults.awaitUnreachable(nodes.get(2), nodes.get(1), WAIT);
    TestProbe<String> probe = TestProbe.create(nodes.get(1));
    seenFrom(nodes.get(0), nodes.get(1), probe).tell("between the others");
    assertEquals("between the others", probe.expectMessageClass(String.class, WAIT));

    faults.healAll();
    assertEquals(
        "NodeFaults(" + faults.nodes().stream().map(ActorSystem::address).toList() + ", cuts [])",
        faults.toString());
    for (ActorSystem<Void> other : nodes.subList(0, 2)) {
      faults.awaitReachable(other, nodes.get(2), WAIT);
      faults.awaitReachable(nodes.get(2), other, WAIT);
    }
  }

  @Test
  void aDownedNodeIsRemovedByTheOthers() {
    List<ActorSystem<Void>> nodes = cluster(3);
    NodeFaults faults = NodeFaults.of(nodes);
    faults.down(nodes.get(2));
    faults.awaitRemoved(nodes.get(0), nodes.get(2), WAIT);
    faults.awaitRemoved(nodes.get(1), nodes.get(2), WAIT);
    faults.awaitReachable(nodes.get(0), nodes.get(1), WAIT);
  }

  @Test
  void anIsolatedNodeThatIsDownedIsRemovedByTheOthers() {
    List<ActorSystem<Void>> nodes = cluster(3);
    NodeFaults faults = NodeFaults.of(nodes);
    faults.isolate(nodes.get(2));
    faults.awaitUnreachable(nodes.get(0), nodes.get(2), WAIT);
    faults.down(nodes.get(2));
    faults.awaitRemoved(nodes.get(0), nodes.get(2), WAIT);
    faults.awaitRemoved(nodes.get(1), nodes.get(2), WAIT);
  }

  @Test
  void aNodeThatLeavesIsRemoved() {
    List<ActorSystem<Void>> nodes = cluster(2);
    NodeFaults faults = NodeFaults.of(nodes);
    faults.leave(nodes.get(1));
    faults.awaitRemoved(nodes.get(0), nodes.get(1), WAIT);
  }

  @Test
  void aWaitThatIsNotMetFailsNamingBothNodesAndWhatTheObserverSees() {
    List<ActorSystem<Void>> nodes = cluster(2);
    NodeFaults faults = NodeFaults.of(nodes);
    AssertionError e =
        assertThrows(
            AssertionError.class,
            () -> faults.awaitUnreachable(nodes.get(0), nodes.get(1), Duration.ofMillis(200)));
    String message = e.getMessage();
    assertTrue(message.startsWith(nodes.get(0).address() + " did not see "), message);
    assertTrue(message.contains(nodes.get(1).address() + " unreachable within PT0.2S"), message);
    assertTrue(message.contains("it sees members ["), message);
    assertTrue(message.contains("unreachable []"), message);
  }

  @Test
  void aCutWithoutArteryTestModeIsRejectedNamingTheKey() {
    ActorSystem<Void> plain = system("pekko.remote.artery.advanced.test-mode = off");
    ActorSystem<Void> other = system("");
    NodeFaults faults = NodeFaults.of(plain, other);
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> faults.cut(other, plain));
    assertTrue(e.getMessage().contains(plain.address().toString()), e.getMessage());
    assertTrue(
        e.getMessage().contains("set pekko.remote.artery.advanced.test-mode = on"), e.getMessage());
    assertThrows(IllegalStateException.class, () -> faults.isolate(other));
    assertThrows(IllegalStateException.class, () -> faults.heal(plain, other));
    assertEquals(
        "NodeFaults(" + List.of(plain.address(), other.address()) + ", cuts [])",
        faults.toString());
  }

  @Test
  void misuseIsRejectedNamingTheNodes() {
    ActorSystem<Void> a = system("");
    ActorSystem<Void> b = system("");
    ActorSystem<Void> stranger = system("");
    NodeFaults faults = NodeFaults.of(a, b);

    IllegalArgumentException one =
        assertThrows(IllegalArgumentException.class, () -> NodeFaults.of(a));
    assertTrue(one.getMessage().contains("at least two nodes"), one.getMessage());
    IllegalArgumentException twice =
        assertThrows(IllegalArgumentException.class, () -> NodeFaults.of(a, b, a));
    assertEquals(a.address() + " is given twice", twice.getMessage());
    IllegalArgumentException self =
        assertThrows(IllegalArgumentException.class, () -> faults.cut(a, a));
    assertTrue(self.getMessage().contains(a.address() + " twice"), self.getMessage());
    IllegalArgumentException outside =
        assertThrows(IllegalArgumentException.class, () -> faults.down(stranger));
    assertTrue(
        outside.getMessage().startsWith(stranger.address() + " is not one of"),
        outside.getMessage());
    assertThrows(IllegalArgumentException.class, () -> faults.awaitRemoved(a, stranger, WAIT));
    IllegalArgumentException zero =
        assertThrows(
            IllegalArgumentException.class, () -> faults.awaitRemoved(a, b, Duration.ZERO));
    assertEquals("timeout must be positive, got PT0S", zero.getMessage());
    assertThrows(NullPointerException.class, () -> faults.cut(a, null));
  }

  @Test
  void aNodeThatIsNotAClusterNodeIsRejected() {
    ActorSystem<Void> node = system("");
    ActorSystem<Void> local = system("pekko.actor.provider = local");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> NodeFaults.of(node, local));
    assertTrue(e.getMessage().contains("pekko.actor.provider = cluster"), e.getMessage());
  }
}
