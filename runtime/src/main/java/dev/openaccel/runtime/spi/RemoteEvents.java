package dev.openaccel.runtime.spi;

import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventHandle;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * Opens event handles of other nodes: the one extension point for a distribution module
 * (OpenAccel's cluster module). Such a module {@link #register}s one per actor system, and {@code
 * Accelerator.openEvent} of a handle whose node is not this system's then asks it; with none
 * registered, that call fails with "no cluster support is running here".
 */
@FunctionalInterface
public interface RemoteEvents {

  /**
   * An event that follows the records of the event behind {@code handle}, owned by another node.
   *
   * @throws IllegalArgumentException if the node or the event is unknown
   */
  Event open(EventHandle handle);

  /**
   * Lets {@code remote} open the handles of other nodes for {@code system}'s accelerator.
   * Registering the same object again is a no-op. This method is thread-safe.
   *
   * @throws IllegalStateException if another one is registered for {@code system}
   */
  static void register(ActorSystem<?> system, RemoteEvents remote) {
    RemoteEventsSlot.of(system).register(remote);
  }

  /** The one registered for {@code system}, or null. This method is thread-safe. */
  static RemoteEvents registered(ActorSystem<?> system) {
    return RemoteEventsSlot.of(system).get();
  }
}
