package dev.openaccel.cluster;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventHandle;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.typed.Cluster;

/**
 * Opens event handles of other nodes as {@link RemoteEvent}s, for {@code Accelerator.openEvent}
 * (registered with the runtime) and {@code ClusterAccelerator.openEventAsync}: only handles of
 * members, each checked once with its owner. Internal.
 *
 * <p>Owns nothing: the members are {@link Nodes}' and the cluster's.
 */
final class RemoteEvents {
  private final ActorSystem<?> system;
  private final Accelerator accelerator;
  private final Nodes nodes;
  private final Waits waits;
  private final Duration timeout;

  RemoteEvents(
      ActorSystem<?> system, Accelerator accelerator, Nodes nodes, Waits waits, Duration timeout) {
    this.system = system;
    this.accelerator = accelerator;
    this.nodes = nodes;
    this.waits = waits;
    this.timeout = timeout;
  }

  /**
   * Opens an event of another node after asking it once (bounded by the control timeout) whether
   * the event exists, which also gives {@code query()} its first state.
   */
  Event open(EventHandle handle) {
    RemoteEvent event = event(handle);
    event.check(timeout);
    return event;
  }

  /** Like {@link #open}, without blocking: the stage fails instead. */
  CompletionStage<Event> openAsync(EventHandle handle) {
    RemoteEvent event = event(handle);
    return event.checkAsync(timeout).thenApply(ok -> (Event) event);
  }

  private RemoteEvent event(EventHandle handle) {
    if (!isMember(handle.node())) {
      throw new IllegalArgumentException(
          "event handle from node "
              + handle.node()
              + ", which is not a member of this cluster (members: "
              + nodes.members().keySet()
              + ")");
    }
    return new RemoteEvent(accelerator, handle, nodes.port(handle.node()), waits);
  }

  private boolean isMember(String node) {
    if (nodes.members().containsKey(node)) {
      return true;
    }
    for (Member member : Cluster.get(system).state().getMembers()) {
      if (member.address().toString().equals(node)) {
        return true;
      }
    }
    return false;
  }
}
