package dev.openaccel.cluster;

import dev.openaccel.runtime.Accelerator;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.cluster.typed.Cluster;

/**
 * The parts of this node once its actor system is a cluster node, wired together: the bulk lanes,
 * this node's own devices and resources ({@link LocalNode}), the other nodes ({@link Nodes}), waits
 * on events of any node, the {@link Collectives}, and the gateway and directory actors. Registers
 * the node's {@link RemoteEvents} with the runtime through the SPI's one extension point for
 * distribution modules, {@link dev.openaccel.runtime.spi.RemoteEvents#register}, so that {@code
 * Accelerator.openEvent(handle)} opens handles of other nodes. Internal.
 *
 * <p>Owns nothing mutable itself: its parts are fixed at construction.
 */
final class ClusterNode {
  private final Bulk bulk;
  private final LocalNode local;
  private final Nodes nodes;
  private final Waits waits;
  private final RemoteEvents remoteEvents;
  private final Collectives collectives;

  ClusterNode(
      ActorSystem<?> system,
      Accelerator accelerator,
      KernelRegistry kernels,
      String self,
      ClusterSettings settings,
      CollectiveSettings collectiveSettings) {
    Membership membership = new Membership(Cluster.get(system), self);
    this.bulk = new Bulk(system, settings, membership);
    // Copies to or from another node need that node's port: looked up when the copy runs.
    this.local = new LocalNode(accelerator, kernels, self, this::portOf, bulk);
    this.nodes =
        new Nodes(
            system,
            new LocalPort(local),
            local.devices(),
            settings.controlTimeout(),
            bulk,
            membership);
    this.waits = new Waits(nodes, self);
    this.collectives = new Collectives(system, self, bulk, collectiveSettings, accelerator.trace());
    this.remoteEvents =
        new RemoteEvents(system, accelerator, nodes, waits, settings.controlTimeout());
    ActorRef<GatewayProtocol.Command> gateway =
        system.systemActorOf(
            NodeGateway.create(local, bulk, membership), NodeGateway.NAME, Props.empty());
    Directory.spawn(system, nodes, gateway, bulk, local);
    dev.openaccel.runtime.spi.RemoteEvents.register(system, remoteEvents::open);
  }

  /** Whether {@code provider}, the value of {@code pekko.actor.provider}, makes a cluster node. */
  static boolean isClusterProvider(String provider) {
    return provider.equals("cluster")
        || provider.equals("org.apache.pekko.cluster.ClusterActorRefProvider");
  }

  Bulk bulk() {
    return bulk;
  }

  LocalNode local() {
    return local;
  }

  Nodes nodes() {
    return nodes;
  }

  Waits waits() {
    return waits;
  }

  Collectives collectives() {
    return collectives;
  }

  RemoteEvents remoteEvents() {
    return remoteEvents;
  }

  private NodePort portOf(String node) {
    return nodes.port(node);
  }
}
