package dev.openaccel.cluster;

import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Event;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The buffers and interprocess events this node created through the cluster API, by id, each with
 * the node that created it, its owner. Any member may use what it was handed; only the owner frees
 * a buffer or closes an event; when the owner leaves the cluster, its buffers are freed and its
 * events closed. Internal.
 *
 * <p>Owns: both tables and the buffer id counter. Thread-safe (concurrent maps).
 */
final class Resources {
  private record Owned<T>(String owner, T value) {}

  private final String node;
  private final Map<Long, Owned<DeviceBuffer>> buffers = new ConcurrentHashMap<>();
  private final Map<Long, Owned<Event>> events = new ConcurrentHashMap<>();
  private final AtomicLong bufferIds = new AtomicLong();

  Resources(String node) {
    this.node = node;
  }

  long addBuffer(String owner, DeviceBuffer buffer) {
    long id = bufferIds.incrementAndGet();
    buffers.put(id, new Owned<>(owner, buffer));
    return id;
  }

  /**
   * @throws IllegalStateException naming the buffer and this node if it is unknown or freed
   */
  DeviceBuffer buffer(long bufferId) {
    Owned<DeviceBuffer> owned = buffers.get(bufferId);
    if (owned == null) {
      throw new IllegalStateException(
          "buffer " + bufferId + " of node " + node + " is unknown or was freed");
    }
    return owned.value();
  }

  /**
   * Frees the buffer once the work that used it completes; an unknown id is ignored (idempotent).
   *
   * @throws IllegalStateException naming both nodes if {@code requester} is not its owner
   */
  void freeBuffer(String requester, long bufferId) {
    Owned<DeviceBuffer> owned = buffers.get(bufferId);
    if (owned == null) {
      return;
    }
    checkOwner(owned, requester, "free buffer " + bufferId);
    if (buffers.remove(bufferId, owned)) {
      owned.value().close();
    }
  }

  void addEvent(String owner, Event event) {
    events.put(event.id(), new Owned<>(owner, event));
  }

  /**
   * @throws IllegalArgumentException naming the event and this node if it is unknown or closed
   */
  Event event(long eventId) {
    Owned<Event> owned = events.get(eventId);
    if (owned == null) {
      throw new IllegalArgumentException(
          "no interprocess event " + eventId + " was created through the cluster on node " + node);
    }
    return owned.value();
  }

  /**
   * Closes the event; an unknown id is ignored (idempotent).
   *
   * @throws IllegalStateException naming both nodes if {@code requester} is not its owner
   */
  void closeEvent(String requester, long eventId) {
    Owned<Event> owned = events.get(eventId);
    if (owned == null) {
      return;
    }
    checkOwner(owned, requester, "close event " + eventId);
    if (events.remove(eventId, owned)) {
      owned.value().close();
    }
  }

  /** Frees the buffers and closes the events of {@code owner}, which left; returns how many. */
  int release(String owner) {
    int released = 0;
    for (Map.Entry<Long, Owned<DeviceBuffer>> entry : buffers.entrySet()) {
      if (entry.getValue().owner().equals(owner)
          && buffers.remove(entry.getKey(), entry.getValue())) {
        entry.getValue().value().close();
        released++;
      }
    }
    for (Map.Entry<Long, Owned<Event>> entry : events.entrySet()) {
      if (entry.getValue().owner().equals(owner)
          && events.remove(entry.getKey(), entry.getValue())) {
        entry.getValue().value().close();
        released++;
      }
    }
    return released;
  }

  /** How many buffers and events are live, for tests and diagnostics. */
  int size() {
    return buffers.size() + events.size();
  }

  private void checkOwner(Owned<?> owned, String requester, String what) {
    if (!owned.owner().equals(requester)) {
      throw new IllegalStateException(
          "node "
              + requester
              + " cannot "
              + what
              + " of node "
              + node
              + ": it belongs to node "
              + owned.owner()
              + ", which created it; only the owner frees it");
    }
  }
}
