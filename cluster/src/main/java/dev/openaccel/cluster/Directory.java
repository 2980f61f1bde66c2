package dev.openaccel.cluster;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.pekko.actor.NoSerializationVerificationNeeded;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.apache.pekko.cluster.ClusterEvent;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Subscribe;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows the Receptionist's listing of gateways and keeps {@link Nodes} up to date: a newly listed
 * node is asked once for its devices; an unlisted one is dropped. Internal.
 *
 * <p>Owns: the set of nodes it has seen listed.
 */
final class Directory {
  private static final Logger log = LoggerFactory.getLogger(Directory.class);

  private Directory() {}

  private record Listed(Receptionist.Listing listing)
      implements NoSerializationVerificationNeeded {}

  private record Downed(ClusterEvent.MemberDowned event)
      implements NoSerializationVerificationNeeded {}

  private record Removed(ClusterEvent.MemberRemoved event)
      implements NoSerializationVerificationNeeded {}

  private record Retry(ActorRef<GatewayProtocol.Command> gateway)
      implements NoSerializationVerificationNeeded {}

  /**
   * Starts this node's directory: when a node is removed, its bulk data fails and what it owned
   * here is released.
   */
  static void spawn(
      ActorSystem<?> system,
      Nodes nodes,
      ActorRef<GatewayProtocol.Command> gateway,
      Bulk bulk,
      LocalNode local) {
    Consumer<String> removed =
        node -> {
          bulk.nodeLeft(node, "it was removed from the cluster");
          local.release(node);
        };
    system.systemActorOf(create(nodes, gateway, removed), "openaccel-directory", Props.empty());
  }

  static Behavior<Object> create(
      Nodes nodes, ActorRef<GatewayProtocol.Command> localGateway, Consumer<String> onRemoved) {
    return Behaviors.setup(
        context -> {
          ActorRef<Receptionist.Listing> adapter =
              context.messageAdapter(Receptionist.Listing.class, Listed::new);
          context.getSystem().receptionist().tell(Receptionist.subscribe(NodeGateway.KEY, adapter));
          ActorRef<ClusterEvent.MemberDowned> downs =
              context.messageAdapter(ClusterEvent.MemberDowned.class, Downed::new);
          Cluster.get(context.getSystem())
              .subscriptions()
              .tell(Subscribe.create(downs, ClusterEvent.MemberDowned.class));
          ActorRef<ClusterEvent.MemberRemoved> removals =
              context.messageAdapter(ClusterEvent.MemberRemoved.class, Removed::new);
          Cluster.get(context.getSystem())
              .subscriptions()
              .tell(Subscribe.create(removals, ClusterEvent.MemberRemoved.class));
          Set<ActorRef<GatewayProtocol.Command>> listed = new HashSet<>();
          return Behaviors.receive(Object.class)
              .onMessage(
                  Listed.class,
                  message -> {
                    onListing(context, nodes, localGateway, listed, message.listing());
                    return Behaviors.same();
                  })
              .onMessage(
                  Retry.class,
                  message -> {
                    if (listed.contains(message.gateway())) {
                      describe(context, nodes, message.gateway());
                    }
                    return Behaviors.same();
                  })
              .onMessage(
                  Removed.class,
                  message -> {
                    String node = message.event().member().address().toString();
                    nodes.left(node);
                    onRemoved.accept(node);
                    return Behaviors.same();
                  })
              .onMessage(
                  Downed.class,
                  message -> {
                    nodes.downed(message.event().member().address().toString());
                    return Behaviors.same();
                  })
              .build();
        });
  }

  private static void onListing(
      ActorContext<Object> context,
      Nodes nodes,
      ActorRef<GatewayProtocol.Command> localGateway,
      Set<ActorRef<GatewayProtocol.Command>> listed,
      Receptionist.Listing listing) {
    Set<ActorRef<GatewayProtocol.Command>> now =
        new HashSet<>(listing.getServiceInstances(NodeGateway.KEY));
    now.remove(localGateway);
    for (ActorRef<GatewayProtocol.Command> gateway : now) {
      if (listed.add(gateway)) {
        describe(context, nodes, gateway);
      }
    }
    for (ActorRef<GatewayProtocol.Command> gateway : Set.copyOf(listed)) {
      if (!now.contains(gateway)) {
        listed.remove(gateway);
        nodes.unlisted(gateway.path().address().toString());
      }
    }
  }

  /**
   * Asks a newly listed node for its devices; a node that does not yet know this one as a member
   * refuses, so a failure is retried after a second while the node is listed.
   */
  private static void describe(
      ActorContext<Object> context, Nodes nodes, ActorRef<GatewayProtocol.Command> gateway) {
    String node = gateway.path().address().toString();
    ActorRef<Object> self = context.getSelf();
    nodes
        .port(node, gateway)
        .describe()
        .whenComplete(
            (devices, failure) -> {
              if (failure == null) {
                nodes.described(node, devices);
              } else {
                log.info("node {} did not describe its devices yet: {}", node, failure.toString());
                context
                    .getSystem()
                    .scheduler()
                    .scheduleOnce(
                        Duration.ofSeconds(1),
                        () -> self.tell(new Retry(gateway)),
                        context.getSystem().executionContext());
              }
            });
  }
}
