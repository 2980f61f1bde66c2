package dev.openaccel.runtime.spi;

import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventHandle;

/**
 * Opens event handles of other nodes: what a distribution module registers with {@code
 * Accelerator.registerRemoteEvents} so that {@code openEvent} works across a cluster.
 */
@FunctionalInterface
public interface RemoteEvents {

  /**
   * An event that follows the records of the event behind {@code handle}, owned by another node.
   *
   * @throws IllegalArgumentException if the node or the event is unknown
   */
  Event open(EventHandle handle);
}
