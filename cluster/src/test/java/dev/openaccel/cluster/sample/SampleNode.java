package dev.openaccel.cluster.sample;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.ClusterEvent;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Subscribe;

/**
 * What the samples' node processes share: their configuration (a cluster node on 127.0.0.1 with one
 * OpenReg device and Split Brain Resolver) and a worker's guardian that stops the node once the
 * driver is removed from the cluster. {@code CollectivesNode} uses the configuration too.
 */
public final class SampleNode {
  private SampleNode() {}

  /**
   * A node's configuration on 127.0.0.1 at {@code port} (0: any free port); {@code extra} comes
   * first (seed nodes, Split Brain Resolver's {@code stable-after}).
   */
  public static Config config(int port, String extra) {
    return ConfigFactory.parseString(extra)
        .withFallback(
            ConfigFactory.parseString(
                """
                pekko.actor.provider = cluster
                pekko.remote.artery.canonical.hostname = "127.0.0.1"
                pekko.remote.artery.canonical.port = %d
                pekko.cluster.downing-provider-class = "org.apache.pekko.cluster.sbr.SplitBrainResolverProvider"
                pekko.coordinated-shutdown.exit-jvm = off
                pekko.loglevel = WARNING
                openaccel.openreg.device-count = 1
                """
                    .formatted(port)))
        .withFallback(ConfigFactory.load());
  }

  /** A worker's guardian: the worker's actor system stops once {@code driver} is removed. */
  static Behavior<Void> stopWhenRemoved(Address driver) {
    return Behaviors.<ClusterEvent.MemberRemoved>setup(
            context -> {
              Cluster.get(context.getSystem())
                  .subscriptions()
                  .tell(Subscribe.create(context.getSelf(), ClusterEvent.MemberRemoved.class));
              return Behaviors.receiveMessage(
                  removed -> {
                    if (removed.member().address().equals(driver)) {
                      System.out.println("the driver " + driver + " is gone; stopping");
                      return Behaviors.stopped();
                    }
                    return Behaviors.same();
                  });
            })
        .unsafeCast();
  }
}
