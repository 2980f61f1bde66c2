package dev.openaccel.cluster;

import dev.openaccel.runtime.Device;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;

/**
 * The nodes this node knows: a {@link NodePort} per node (created on first use, also for a node
 * known only from an event handle), and the devices of the nodes whose gateways the Receptionist
 * lists. Internal.
 *
 * <p>Owns: the port table (the port of a node that left fails every request at once, and is
 * replaced when the node comes back) and the member table, written by the {@link Directory} actor
 * and by links that see their node go. Thread-safe; {@link #awaitMembers} waits on this object's
 * monitor.
 */
final class Nodes {
  private final ActorSystem<?> system;
  private final String self;
  private final NodePort local;
  private final Duration controlTimeout;
  private final Bulk bulk;
  private final Membership membership;
  private final Map<String, NodePort> ports = new ConcurrentHashMap<>();
  private final AtomicLong links = new AtomicLong();
  private final Set<String> departed = ConcurrentHashMap.newKeySet();
  private volatile SortedMap<String, List<Device>> members = new TreeMap<>();

  Nodes(
      ActorSystem<?> system,
      NodePort local,
      List<Device> localDevices,
      Duration timeout,
      Bulk bulk,
      Membership membership) {
    this.system = system;
    this.self = local.node();
    this.local = local;
    this.controlTimeout = timeout;
    this.bulk = bulk;
    this.membership = membership;
    ports.put(self, local);
    described(self, localDevices);
  }

  String self() {
    return self;
  }

  /**
   * The port of {@code node}; for another node, a link to its gateway at its well-known path.
   *
   * @throws IllegalArgumentException naming the node and the members if it is not a member, so that
   *     nothing waits on a node that cannot answer
   */
  NodePort port(String node) {
    if (node.equals(self)) {
      return local;
    }
    NodePort known = ports.get(node);
    if (known != null) {
      return known;
    }
    if (!membership.admits(node) && departed.contains(node)) {
      throw Failures.nodeLeft(node, "it was removed from the cluster");
    }
    if (!membership.admits(node)) {
      throw new IllegalArgumentException(
          "node "
              + node
              + " is not a member of this cluster (members: "
              + membership.members()
              + ")");
    }
    return ports.computeIfAbsent(
        node,
        n ->
            link(
                n,
                ActorRefResolver.get(system).resolveActorRef(n + "/system/" + NodeGateway.NAME)));
  }

  /** The port of {@code node}, whose gateway the Receptionist listed. */
  NodePort port(String node, ActorRef<GatewayProtocol.Command> gateway) {
    return node.equals(self) ? local : ports.computeIfAbsent(node, n -> link(n, gateway));
  }

  /** The devices of the nodes known to be up, by node. */
  SortedMap<String, List<Device>> members() {
    return members;
  }

  synchronized void described(String node, List<Device> devices) {
    TreeMap<String, List<Device>> next = new TreeMap<>(members);
    next.put(node, List.copyOf(devices));
    members = next;
    notifyAll();
  }

  /** {@code node} is no longer listed by the Receptionist, or has left. */
  synchronized void unlisted(String node) {
    if (members.containsKey(node)) {
      TreeMap<String, List<Device>> next = new TreeMap<>(members);
      next.remove(node);
      members = next;
      notifyAll();
    }
  }

  /**
   * {@code node} was downed: a final decision, so its waiters fail now rather than when it is
   * removed, which takes until the others see it unreachable.
   */
  void downed(String node) {
    if (ports.get(node) instanceof RemotePort remote) {
      remote.gone("it was downed");
    }
    left(node);
  }

  /** Waits until at least {@code count} nodes (this one included) are known with their devices. */
  synchronized boolean awaitMembers(int count, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (members.size() < count) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      wait(Math.max(1, left / 1_000_000));
    }
    return true;
  }

  private NodePort link(String node, ActorRef<GatewayProtocol.Command> gateway) {
    ActorRef<NodeLink.Command> link =
        system.systemActorOf(
            NodeLink.create(node, gateway, this::left),
            "openaccel-link-" + links.incrementAndGet(),
            Props.empty());
    return new RemotePort(node, link, controlTimeout, bulk);
  }

  /**
   * {@code node} is gone: its port keeps failing for those who hold it, and a node that comes back
   * at the same address (a new incarnation) gets a new port when the Receptionist lists it.
   */
  void left(String node) {
    departed.add(node);
    ports.remove(node);
    unlisted(node);
  }
}
