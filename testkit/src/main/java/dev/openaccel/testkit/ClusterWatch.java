package dev.openaccel.testkit;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.Cluster;
import org.apache.pekko.cluster.ClusterEvent;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.MemberStatus;

/**
 * Waits, bounded, until one node's view of the cluster shows another node in a given state. The
 * view is an actor on the observing node subscribed to its cluster events (a snapshot first, then
 * each change), so no state is polled and no change between two looks is missed. Internal to the
 * testkit: {@link NodeFaults} is its user.
 *
 * <p>Owns: nothing shared; each wait's view (members and unreachable addresses) is written only by
 * its actor.
 */
final class ClusterWatch {
  private ClusterWatch() {}

  /** What a wait waits for the observer to see of the node. */
  enum Sight {
    /** The node is a member that the failure detector of at least one member finds unreachable. */
    UNREACHABLE("unreachable"),
    /** The node is a member and no member finds it unreachable. */
    REACHABLE("reachable"),
    /** The node is not a member (any more): removed, or never joined. */
    REMOVED("removed");

    private final String word;

    Sight(String word) {
      this.word = word;
    }

    boolean seenIn(Map<Address, MemberStatus> members, Set<Address> unreachable, Address node) {
      return switch (this) {
        case UNREACHABLE -> unreachable.contains(node);
        case REACHABLE -> members.containsKey(node) && !unreachable.contains(node);
        case REMOVED -> !members.containsKey(node);
      };
    }
  }

  private enum Stop {
    INSTANCE
  }

  /**
   * Returns once {@code observer} sees {@code node} as {@code sight}.
   *
   * @throws AssertionError naming both nodes, what was awaited and what {@code observer} sees, if
   *     it does not within {@code timeout}
   */
  static void await(ActorSystem<?> observer, Address node, Sight sight, Duration timeout) {
    CompletableFuture<Void> seen = new CompletableFuture<>();
    ActorRef<Object> watch =
        observer.systemActorOf(
            watching(node, sight, seen),
            "openaccel-cluster-watch-" + UUID.randomUUID(),
            Props.empty());
    try {
      seen.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      throw new AssertionError(
          observer.address()
              + " did not see "
              + node
              + " "
              + sight.word
              + " within "
              + timeout
              + "; it sees "
              + describe(observer),
          e);
    } catch (ExecutionException e) {
      throw new IllegalStateException(
          "watching " + node + " from " + observer.address() + " failed", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(
          "interrupted while waiting until "
              + observer.address()
              + " sees "
              + node
              + " "
              + sight.word,
          e);
    } finally {
      watch.tell(Stop.INSTANCE);
    }
  }

  private static Behavior<Object> watching(
      Address node, Sight sight, CompletableFuture<Void> seen) {
    return Behaviors.setup(
        context -> {
          Cluster cluster = Cluster.get(Adapter.toClassic(context.getSystem()));
          org.apache.pekko.actor.ActorRef self = Adapter.toClassic(context.getSelf());
          cluster.subscribe(
              self,
              ClusterEvent.initialStateAsSnapshot(),
              ClusterEvent.MemberEvent.class,
              ClusterEvent.ReachabilityEvent.class);
          Map<Address, MemberStatus> members = new HashMap<>();
          Set<Address> unreachable = new HashSet<>();
          return Behaviors.receive(Object.class)
              .onMessageEquals(Stop.INSTANCE, Behaviors::stopped)
              .onMessage(
                  Object.class,
                  message -> {
                    apply(message, members, unreachable);
                    if (sight.seenIn(members, unreachable, node)) {
                      seen.complete(null);
                      return Behaviors.stopped();
                    }
                    return Behaviors.same();
                  })
              .onSignal(
                  PostStop.class,
                  signal -> {
                    cluster.unsubscribe(self);
                    return Behaviors.same();
                  })
              .build();
        });
  }

  /** Applies a snapshot or a change of the observer's cluster to the view. */
  private static void apply(
      Object message, Map<Address, MemberStatus> members, Set<Address> unreachable) {
    if (message instanceof ClusterEvent.CurrentClusterState state) {
      members.clear();
      state.getMembers().forEach(member -> members.put(member.address(), member.status()));
      unreachable.clear();
      state.getUnreachable().forEach(member -> unreachable.add(member.address()));
    } else if (message instanceof ClusterEvent.UnreachableMember event) {
      unreachable.add(event.member().address());
    } else if (message instanceof ClusterEvent.ReachableMember event) {
      unreachable.remove(event.member().address());
    } else if (message instanceof ClusterEvent.MemberRemoved event) {
      members.remove(event.member().address());
      unreachable.remove(event.member().address());
    } else if (message instanceof ClusterEvent.MemberEvent event) {
      members.put(event.member().address(), event.member().status());
    }
  }

  /** What {@code observer}'s cluster state holds now, for a failure message. */
  static String describe(ActorSystem<?> observer) {
    ClusterEvent.CurrentClusterState state = Cluster.get(Adapter.toClassic(observer)).state();
    StringBuilder text = new StringBuilder("members [");
    String separator = "";
    for (Member member : state.getMembers()) {
      text.append(separator).append(member.address()).append(' ').append(member.status());
      separator = ", ";
    }
    text.append("], unreachable [");
    separator = "";
    for (Member member : state.getUnreachable()) {
      text.append(separator).append(member.address());
      separator = ", ";
    }
    return text.append(']').toString();
  }
}
