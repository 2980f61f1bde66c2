package dev.openaccel.testkit;

import dev.openaccel.testkit.ClusterWatch.Sight;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.cluster.ClusterActorRefProvider;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Down;
import org.apache.pekko.cluster.typed.Leave;

/**
 * Faults between the nodes of a Pekko cluster whose actor systems run in this JVM (Artery, as a
 * cluster test starts them): cut the network between two nodes and heal it, isolate a node, down a
 * node or make it leave, and wait, bounded, until one node sees another unreachable, reachable
 * again or removed.
 *
 * <pre>{@code
 * NodeFaults faults = NodeFaults.of(first, second, third);
 * faults.isolate(third);                                   // cut from first and second
 * faults.awaitUnreachable(first, third, Duration.ofSeconds(20));
 * faults.healAll();
 * faults.awaitReachable(first, third, Duration.ofSeconds(20));
 * faults.down(third);
 * faults.awaitRemoved(first, third, Duration.ofSeconds(20));
 * }</pre>
 *
 * <p>A cut is Artery's test-mode blackhole, the one Pekko's multi-node testkit uses: each of the
 * two nodes drops every message to and from the other, in both directions, until {@link #heal};
 * what was dropped is lost, as on a real network. It needs {@code
 * pekko.remote.artery.advanced.test-mode = on} in the configuration of both nodes, set when they
 * start. The cluster reacts as to a real partition: its failure detectors find the nodes
 * unreachable, and its downing provider (none by default) may down one side; a heal before that
 * makes them reachable again.
 *
 * <p>Needs {@code pekko-cluster-typed} on the class path, an optional dependency of the testkit.
 *
 * <p>Owns: the set of cuts in place, written under this object's monitor by {@link #cut}, {@link
 * #heal}, {@link #isolate} and {@link #healAll}. This class is thread-safe; the {@code await}
 * methods block their caller.
 */
public final class NodeFaults {
  /** The configuration key that must be on for {@link #cut}. */
  public static final String TEST_MODE = "pekko.remote.artery.advanced.test-mode";

  private final List<ActorSystem<?>> nodes;
  private final Set<Set<Address>> cuts = new LinkedHashSet<>();

  private NodeFaults(List<ActorSystem<?>> nodes) {
    this.nodes = nodes;
  }

  /**
   * The faults between {@code nodes}, the actor systems of cluster nodes in this JVM.
   *
   * @throws NullPointerException if {@code nodes} or one of them is null
   * @throws IllegalArgumentException if fewer than two nodes are given, one is given twice, or one
   *     is not a cluster node ({@code pekko.actor.provider = cluster}), naming it
   */
  public static NodeFaults of(ActorSystem<?>... nodes) {
    Objects.requireNonNull(nodes, "nodes");
    return of(List.of(nodes));
  }

  /** {@link #of(ActorSystem...)} with the nodes as a list. */
  public static NodeFaults of(List<? extends ActorSystem<?>> nodes) {
    Objects.requireNonNull(nodes, "nodes");
    List<ActorSystem<?>> checked = new ArrayList<>(nodes.size());
    for (ActorSystem<?> node : nodes) {
      Objects.requireNonNull(node, "node");
      if (!(((ExtendedActorSystem) Adapter.toClassic(node)).provider()
          instanceof ClusterActorRefProvider)) {
        throw new IllegalArgumentException(
            node.address() + " is not a cluster node: set pekko.actor.provider = cluster");
      }
      if (containsSame(checked, node)) {
        throw new IllegalArgumentException(node.address() + " is given twice");
      }
      checked.add(node);
    }
    if (checked.size() < 2) {
      throw new IllegalArgumentException(
          "faults between nodes need at least two nodes, got " + addresses(checked));
    }
    return new NodeFaults(List.copyOf(checked));
  }

  /** The nodes, in the order given. */
  public List<ActorSystem<?>> nodes() {
    return nodes;
  }

  /**
   * Cuts the network between {@code a} and {@code b}: each drops every message to and from the
   * other until {@link #heal}. Idempotent.
   *
   * @throws IllegalArgumentException if {@code a} and {@code b} are the same node, or one is not of
   *     this set
   * @throws IllegalStateException naming {@value #TEST_MODE} if one of them runs without Artery's
   *     test mode
   */
  public synchronized void cut(ActorSystem<?> a, ActorSystem<?> b) {
    pair(a, b);
    ArteryBlackhole.set(a, b, true);
    cuts.add(Set.of(a.address(), b.address()));
  }

  /**
   * Heals the network between {@code a} and {@code b}: messages pass again (those dropped while it
   * was cut stay lost). Idempotent; healing two nodes that were not cut changes nothing.
   *
   * @throws IllegalArgumentException if {@code a} and {@code b} are the same node, or one is not of
   *     this set
   * @throws IllegalStateException naming {@value #TEST_MODE} if one of them runs without Artery's
   *     test mode
   */
  public synchronized void heal(ActorSystem<?> a, ActorSystem<?> b) {
    pair(a, b);
    ArteryBlackhole.set(a, b, false);
    cuts.remove(Set.of(a.address(), b.address()));
  }

  /**
   * Cuts {@code node} from every other node of this set.
   *
   * @throws IllegalArgumentException if {@code node} is not of this set
   * @throws IllegalStateException naming {@value #TEST_MODE} if a node runs without Artery's test
   *     mode
   */
  public synchronized void isolate(ActorSystem<?> node) {
    member(node);
    for (ActorSystem<?> other : nodes) {
      if (other != node) {
        cut(node, other);
      }
    }
  }

  /** Heals every cut this object made and has not healed, in the order they were made. */
  public synchronized void healAll() {
    for (Set<Address> cut : List.copyOf(cuts)) {
      List<ActorSystem<?>> pair = nodes.stream().filter(n -> cut.contains(n.address())).toList();
      heal(pair.get(0), pair.get(1));
    }
  }

  /**
   * Downs {@code node}: each other node of this set that is still running has its cluster manager
   * mark it down, so that whichever side of a cut holds a leader removes it. The node itself is not
   * asked; once it learns that it is down, it stops as its configuration says ({@code
   * pekko.cluster.run-coordinated-shutdown-when-down}).
   *
   * @throws IllegalArgumentException if {@code node} is not of this set
   */
  public void down(ActorSystem<?> node) {
    member(node);
    for (ActorSystem<?> other : nodes) {
      if (other != node && !other.whenTerminated().isCompleted()) {
        Cluster.get(other).manager().tell(new Down(node.address()));
      }
    }
  }

  /**
   * Makes {@code node} leave the cluster gracefully: its own cluster manager asks to leave, and the
   * others remove it once it has handed over.
   *
   * @throws IllegalArgumentException if {@code node} is not of this set
   */
  public void leave(ActorSystem<?> node) {
    member(node);
    Cluster.get(node).manager().tell(new Leave(node.address()));
  }

  /**
   * Returns once {@code observer} sees {@code node} unreachable: a member that the failure detector
   * of at least one member finds unreachable (Pekko's {@code UnreachableMember}).
   *
   * @throws AssertionError naming both nodes and what {@code observer} sees if it does not within
   *     {@code timeout}
   * @throws IllegalArgumentException if they are the same node, one is not of this set, or {@code
   *     timeout} is not positive
   */
  public void awaitUnreachable(ActorSystem<?> observer, ActorSystem<?> node, Duration timeout) {
    await(observer, node, Sight.UNREACHABLE, timeout);
  }

  /**
   * Returns once {@code observer} sees {@code node} as a member that no member finds unreachable,
   * e.g. after {@link #heal}.
   *
   * @throws AssertionError naming both nodes and what {@code observer} sees if it does not within
   *     {@code timeout}
   * @throws IllegalArgumentException if they are the same node, one is not of this set, or {@code
   *     timeout} is not positive
   */
  public void awaitReachable(ActorSystem<?> observer, ActorSystem<?> node, Duration timeout) {
    await(observer, node, Sight.REACHABLE, timeout);
  }

  /**
   * Returns once {@code node} is not a member in {@code observer}'s view: removed after it was
   * downed or left (or never joined).
   *
   * @throws AssertionError naming both nodes and what {@code observer} sees if it does not within
   *     {@code timeout}
   * @throws IllegalArgumentException if they are the same node, one is not of this set, or {@code
   *     timeout} is not positive
   */
  public void awaitRemoved(ActorSystem<?> observer, ActorSystem<?> node, Duration timeout) {
    await(observer, node, Sight.REMOVED, timeout);
  }

  @Override
  public synchronized String toString() {
    return "NodeFaults(" + addresses(nodes) + ", cuts " + cuts + ")";
  }

  private void await(ActorSystem<?> observer, ActorSystem<?> node, Sight sight, Duration timeout) {
    pair(observer, node);
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be positive, got " + timeout);
    }
    ClusterWatch.await(observer, node.address(), sight, timeout);
  }

  private void pair(ActorSystem<?> a, ActorSystem<?> b) {
    member(a);
    member(b);
    if (a == b) {
      throw new IllegalArgumentException(
          "needs two different nodes, got " + a.address() + " twice");
    }
  }

  private void member(ActorSystem<?> node) {
    Objects.requireNonNull(node, "node");
    if (!containsSame(nodes, node)) {
      throw new IllegalArgumentException(
          node.address() + " is not one of the nodes " + addresses(nodes));
    }
  }

  /** Whether {@code systems} holds {@code node} itself (an actor system equals by its path). */
  private static boolean containsSame(List<ActorSystem<?>> systems, ActorSystem<?> node) {
    return systems.stream().anyMatch(system -> system == node);
  }

  private static List<Address> addresses(List<ActorSystem<?>> systems) {
    return systems.stream().<Address>map(ActorSystem::address).toList();
  }
}
