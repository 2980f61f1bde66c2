package dev.openaccel.cluster;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.EventHandle;
import java.util.List;
import java.util.Objects;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * The messages between a node's {@link NodeLink}s and another node's {@link NodeGateway}. Internal.
 *
 * <p>Every message is a top-level record implementing {@link ClusterMessage}, so Jackson CBOR needs
 * no polymorphic type information: the serializer's manifest names the class. Requests that expect
 * an answer carry a {@code requestId} chosen by the sending link and a {@code replyTo}.
 */
final class GatewayProtocol {
  private GatewayProtocol() {}

  /** What a gateway accepts. */
  interface Command extends ClusterMessage {}

  /** What a gateway answers. */
  interface Reply extends ClusterMessage {
    long requestId();
  }

  // ---- requests ----

  record Describe(long requestId, ActorRef<Reply> replyTo) implements Command {}

  record NewStream(long requestId, Device device, int priority, ActorRef<Reply> replyTo)
      implements Command {}

  record Launch(Device device, long streamId, String kernel, byte[] args, List<Long> buffers)
      implements Command {
    Launch {
      buffers = List.copyOf(buffers);
    }
  }

  /** Records event {@code eventId} (0: a new interprocess event) on the stream. */
  record Record(long requestId, Device device, long streamId, long eventId, ActorRef<Reply> replyTo)
      implements Command {}

  record Wait(Device device, long streamId, EventHandle handle) implements Command {}

  record CloseEvent(long eventId) implements Command {}

  record Synchronize(long requestId, Device device, long streamId, ActorRef<Reply> replyTo)
      implements Command {}

  record Allocate(long requestId, Device device, long bytes, ActorRef<Reply> replyTo)
      implements Command {}

  record Free(long bufferId) implements Command {}

  record Write(Device device, long streamId, long bufferId, int offset, byte[] bytes)
      implements Command {}

  record Read(
      long requestId,
      Device device,
      long streamId,
      long bufferId,
      int offset,
      int length,
      ActorRef<Reply> replyTo)
      implements Command {}

  record Copy(Device device, long streamId, RemoteBuffer src, RemoteBuffer dst)
      implements Command {}

  /** Reads bytes of a buffer on the owner's transfer stream, for a copy another node runs. */
  record Fetch(long requestId, long bufferId, int offset, int length, ActorRef<Reply> replyTo)
      implements Command {}

  /** Writes bytes into a buffer on the owner's transfer stream, for a copy another node runs. */
  record Store(long requestId, long bufferId, int offset, byte[] bytes, ActorRef<Reply> replyTo)
      implements Command {}

  /**
   * Asks about the owner's latest record of an event, as the owner sees it when it handles this
   * request: with {@code await}, the answer comes when that record completes; without, at once.
   */
  record Latest(long requestId, EventHandle handle, boolean await, ActorRef<Reply> replyTo)
      implements Command {}

  // ---- replies ----

  record Described(long requestId, String node, List<Device> devices) implements Reply {
    Described {
      devices = List.copyOf(devices);
    }
  }

  record StreamCreated(long requestId, long streamId) implements Reply {}

  record Recorded(long requestId, EventHandle handle) implements Reply {}

  record Done(long requestId) implements Reply {}

  record Allocated(long requestId, long bufferId) implements Reply {}

  record Bytes(long requestId, byte[] bytes) implements Reply {}

  /** The state of an event's latest record: {@code failure} is null unless it failed. */
  record EventState(
      long requestId,
      long eventId,
      long generation,
      boolean completed,
      long completedAtNanos,
      String failure)
      implements Reply {}

  /**
   * A request failed on the owner. {@code kind} is the exception to raise on the requester: {@code
   * argument}, {@code state}, {@code unsupported} or {@code execution}.
   */
  record Failed(long requestId, String kind, String message) implements Reply {
    Failed {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(message, "message");
    }
  }
}
