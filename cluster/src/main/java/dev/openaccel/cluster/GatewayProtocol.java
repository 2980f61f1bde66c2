package dev.openaccel.cluster;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.EventHandle;
import java.util.List;
import java.util.Objects;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * The control messages between a node's {@link NodeLink}s and another node's {@link NodeGateway}.
 * Internal.
 *
 * <p>Every message is a top-level record implementing {@link ClusterMessage}, so Jackson CBOR needs
 * no polymorphic type information: the serializer's manifest names the class. Every command carries
 * the sending link's reply address, {@code replyTo}: its address is who asks (the gateway serves
 * members only, and only a buffer's or event's owner frees it). Requests that expect an answer also
 * carry a {@code requestId} chosen by the sending link. Bulk data never travels here: its bytes go
 * on the bulk lane ({@link BulkProtocol}) and these messages only name the transfer.
 */
final class GatewayProtocol {
  private GatewayProtocol() {}

  /** What a gateway accepts. */
  interface Command extends ClusterMessage {
    ActorRef<Reply> replyTo();
  }

  /** A command that is answered. */
  interface Request extends Command {
    long requestId();
  }

  /** What a gateway answers. */
  interface Reply extends ClusterMessage {
    long requestId();
  }

  // ---- requests ----

  record Describe(long requestId, ActorRef<Reply> replyTo) implements Request {}

  record NewStream(long requestId, Device device, int priority, ActorRef<Reply> replyTo)
      implements Request {}

  record Launch(
      Device device,
      long streamId,
      String kernel,
      byte[] args,
      List<Long> buffers,
      ActorRef<Reply> replyTo)
      implements Command {
    Launch {
      buffers = List.copyOf(buffers);
    }
  }

  /** Records event {@code eventId} (0: a new interprocess event) on the stream. */
  record Record(long requestId, Device device, long streamId, long eventId, ActorRef<Reply> replyTo)
      implements Request {}

  /**
   * Fixes the record of the event that is current now as pin {@code pinId} of the requester, to be
   * awaited by node {@code awaiter}; answered once fixed.
   */
  record Pin(
      long requestId, EventHandle handle, long pinId, String awaiter, ActorRef<Reply> replyTo)
      implements Request {}

  /** Answered when the record pinned as {@code (pinner, pinId)} completes. */
  record AwaitPin(long requestId, String pinner, long pinId, ActorRef<Reply> replyTo)
      implements Request {}

  /** The stream waits for the record pinned as {@code (pinner, pinId)} at the handle's node. */
  record Wait(
      Device device,
      long streamId,
      EventHandle handle,
      String pinner,
      long pinId,
      ActorRef<Reply> replyTo)
      implements Command {}

  record CloseEvent(long requestId, long eventId, ActorRef<Reply> replyTo) implements Request {}

  record Synchronize(long requestId, Device device, long streamId, ActorRef<Reply> replyTo)
      implements Request {}

  record Allocate(long requestId, Device device, long bytes, ActorRef<Reply> replyTo)
      implements Request {}

  record Free(long requestId, long bufferId, ActorRef<Reply> replyTo) implements Request {}

  /** Writes into the buffer, in stream order, the {@code length} bytes of bulk transfer. */
  record Write(
      Device device,
      long streamId,
      long bufferId,
      long transferId,
      int length,
      ActorRef<Reply> replyTo)
      implements Command {}

  /** Reads in stream order and sends the bytes as bulk transfer {@code transferId}. */
  record Read(
      long requestId,
      Device device,
      long streamId,
      long bufferId,
      int offset,
      int length,
      long transferId,
      ActorRef<Reply> replyTo)
      implements Request {}

  record Copy(
      Device device, long streamId, RemoteBuffer src, RemoteBuffer dst, ActorRef<Reply> replyTo)
      implements Command {}

  /**
   * The range of a buffer, for a copy another node runs: the owner streams it on the bulk lane as
   * one transfer, read on its read stream as the credit window allows, and answers once it is sent.
   */
  record Fetch(
      long requestId,
      long bufferId,
      int offset,
      int length,
      long transferId,
      ActorRef<Reply> replyTo)
      implements Request {}

  /** Writes bulk transfer {@code transferId} into a buffer on the owner's transfer stream. */
  record Store(long requestId, long bufferId, long transferId, int length, ActorRef<Reply> replyTo)
      implements Request {}

  /**
   * Asks about the owner's latest record of an event, as the owner sees it when it handles this
   * request: with {@code await}, the answer comes when that record completes; without, at once.
   */
  record Latest(long requestId, EventHandle handle, boolean await, ActorRef<Reply> replyTo)
      implements Request {}

  /** Answered at once: the requester's flow control on this lane (see {@link NodeLink}). */
  record Fence(long requestId, ActorRef<Reply> replyTo) implements Request {}

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
