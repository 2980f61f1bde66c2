package dev.openaccel.cluster;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.EventHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * Another node as a {@link NodePort}: every call becomes one message through that node's {@link
 * NodeLink}. Control requests (describe, new stream, record, allocate) time out after the
 * configured {@code openaccel.cluster.control-timeout}; requests that wait for device work do not,
 * since that work may take as long as it takes; they fail when the node leaves. Internal;
 * thread-safe.
 */
final class RemotePort implements NodePort {
  private final String node;
  private final ActorRef<NodeLink.Command> link;
  private final Duration controlTimeout;
  private final Bulk bulk;

  RemotePort(String node, ActorRef<NodeLink.Command> link, Duration controlTimeout, Bulk bulk) {
    this.node = node;
    this.link = link;
    this.controlTimeout = controlTimeout;
    this.bulk = bulk;
  }

  @Override
  public String node() {
    return node;
  }

  @Override
  public CompletionStage<List<Device>> describe() {
    return control(
        "describe",
        GatewayProtocol.Describe::new,
        reply -> ((GatewayProtocol.Described) reply).devices());
  }

  @Override
  public CompletionStage<Long> newStream(Device device, int priority) {
    return control(
        "new stream",
        (id, replyTo) -> new GatewayProtocol.NewStream(id, device, priority, replyTo),
        reply -> ((GatewayProtocol.StreamCreated) reply).streamId());
  }

  @Override
  public void launch(Device device, long streamId, String kernel, byte[] args, List<Long> buffers) {
    tell(
        (id, replyTo) ->
            new GatewayProtocol.Launch(device, streamId, kernel, args, buffers, replyTo));
  }

  @Override
  public CompletionStage<EventHandle> record(Device device, long streamId, long eventId) {
    return control(
        "record",
        (id, replyTo) -> new GatewayProtocol.Record(id, device, streamId, eventId, replyTo),
        reply -> ((GatewayProtocol.Recorded) reply).handle());
  }

  @Override
  public CompletionStage<Void> pin(EventHandle handle, long pinId, String awaiter) {
    return control(
        "pin event " + handle.eventId(),
        (id, replyTo) -> new GatewayProtocol.Pin(id, handle, pinId, awaiter, replyTo),
        reply -> null);
  }

  @Override
  public CompletionStage<Void> awaitPin(String pinner, long pinId) {
    return ask(
        (id, replyTo) -> new GatewayProtocol.AwaitPin(id, pinner, pinId, replyTo), reply -> null);
  }

  @Override
  public void waitEvent(
      Device device, long streamId, EventHandle handle, String pinner, long pinId) {
    tell(
        (id, replyTo) ->
            new GatewayProtocol.Wait(device, streamId, handle, pinner, pinId, replyTo));
  }

  @Override
  public CompletionStage<Void> synchronize(Device device, long streamId) {
    return ask(
        (id, replyTo) -> new GatewayProtocol.Synchronize(id, device, streamId, replyTo),
        reply -> null);
  }

  @Override
  public CompletionStage<Void> closeEvent(long eventId) {
    return control(
        "close event " + eventId,
        (id, replyTo) -> new GatewayProtocol.CloseEvent(id, eventId, replyTo),
        reply -> null);
  }

  @Override
  public CompletionStage<Long> allocate(Device device, long bytes) {
    return control(
        "allocate",
        (id, replyTo) -> new GatewayProtocol.Allocate(id, device, bytes, replyTo),
        reply -> ((GatewayProtocol.Allocated) reply).bufferId());
  }

  @Override
  public CompletionStage<Void> free(long bufferId) {
    return control(
        "free buffer " + bufferId,
        (id, replyTo) -> new GatewayProtocol.Free(id, bufferId, replyTo),
        reply -> null);
  }

  /** The command in order on the control lane, the bytes on the bulk lane. */
  @Override
  public void write(Device device, long streamId, long bufferId, byte[] bytes) {
    long transfer = bulk.pushId();
    tell(
        (id, replyTo) ->
            new GatewayProtocol.Write(device, streamId, bufferId, transfer, bytes.length, replyTo));
    // Should the node leave before all is sent, the stream's next synchronize reports it.
    bulk.send(node, transfer, 0, BulkSource.of(bytes));
  }

  @Override
  public CompletionStage<byte[]> read(
      Device device, long streamId, long bufferId, int offset, int length) {
    return pull(
            offset,
            length,
            (transfer, id, replyTo) ->
                new GatewayProtocol.Read(
                    id, device, streamId, bufferId, offset, length, transfer, replyTo))
        .get(0);
  }

  @Override
  public void copy(Device device, long streamId, RemoteBuffer src, RemoteBuffer dst) {
    tell((id, replyTo) -> new GatewayProtocol.Copy(device, streamId, src, dst, replyTo));
  }

  @Override
  public List<CompletableFuture<byte[]>> fetch(long bufferId, int offset, int length) {
    return pull(
        offset,
        length,
        (transfer, id, replyTo) ->
            new GatewayProtocol.Fetch(id, bufferId, offset, length, transfer, replyTo));
  }

  /** Completes when the owner has stored it; fails at once if the source cannot be sent. */
  @Override
  public CompletionStage<Void> store(long bufferId, BulkSource source) {
    long transfer = bulk.pushId();
    CompletableFuture<Void> stored =
        ask(
            (id, replyTo) ->
                new GatewayProtocol.Store(id, bufferId, transfer, (int) source.length(), replyTo),
            reply -> null);
    bulk.send(node, transfer, 0, source)
        .whenComplete(
            (sent, failure) -> {
              if (failure != null) {
                stored.completeExceptionally(Failures.unwrap(failure));
              }
            });
    return stored;
  }

  /** A request answered on the control lane whose bytes come on the bulk lane. */
  @FunctionalInterface
  private interface PullRequest {
    GatewayProtocol.Command build(
        long transferId, long requestId, ActorRef<GatewayProtocol.Reply> replyTo);
  }

  /** The chunks of {@code [offset, offset + length)}, at least one, as the owner sends them. */
  private List<CompletableFuture<byte[]>> pull(long offset, int length, PullRequest request) {
    long transfer = bulk.pullId();
    List<Inbox.Key> keys = new ArrayList<>();
    List<CompletableFuture<byte[]>> chunks = new ArrayList<>();
    for (int i = 0; i < NodeCopy.chunks(length); i++) {
      Inbox.Key key = new Inbox.Key(node, transfer, offset + (long) i * NodeCopy.CHUNK);
      keys.add(key);
      chunks.add(bulk.inbox().expect(key, false));
    }
    ask((id, replyTo) -> request.build(transfer, id, replyTo), reply -> null)
        .whenComplete(
            (sent, failure) -> {
              for (Inbox.Key key : keys) {
                if (failure == null) {
                  bulk.inbox().announce(key);
                } else {
                  bulk.inbox().fail(key, failure);
                }
              }
            });
    return chunks;
  }

  @Override
  public CompletionStage<EventState> latest(EventHandle handle, boolean await) {
    return ask(
        (id, replyTo) -> new GatewayProtocol.Latest(id, handle, await, replyTo),
        reply -> {
          GatewayProtocol.EventState state = (GatewayProtocol.EventState) reply;
          if (state.failure() != null) {
            throw new DeviceExecutionException(
                "record "
                    + state.generation()
                    + " of event "
                    + handle.eventId()
                    + " on node "
                    + node
                    + " failed: "
                    + state.failure());
          }
          return new EventState(state.generation(), state.completed(), state.completedAtNanos());
        });
  }

  /** Fails everything pending on this node, and all later requests, with {@code why}. */
  void gone(String why) {
    link.tell(new NodeLink.Gone(why));
  }

  private void tell(NodeLink.Request command) {
    link.tell(new NodeLink.Tell(command));
  }

  private <T> CompletionStage<T> control(
      String what, NodeLink.Request request, Function<GatewayProtocol.Reply, T> onReply) {
    CompletableFuture<T> result = new CompletableFuture<>();
    ask(request, onReply)
        .orTimeout(controlTimeout.toNanos(), TimeUnit.NANOSECONDS)
        .whenComplete(
            (value, failure) -> {
              if (failure == null) {
                result.complete(value);
              } else if (Failures.unwrap(failure) instanceof TimeoutException) {
                result.completeExceptionally(
                    new DeviceExecutionException(
                        "node " + node + " did not answer " + what + " within " + controlTimeout));
              } else {
                result.completeExceptionally(Failures.unwrap(failure));
              }
            });
    return result;
  }

  /**
   * Sends {@code request} through the link. The result is what {@code onReply} makes of the answer,
   * or the failure the answer carries.
   */
  private <T> CompletableFuture<T> ask(
      NodeLink.Request request, Function<GatewayProtocol.Reply, T> onReply) {
    CompletableFuture<GatewayProtocol.Reply> reply = new CompletableFuture<>();
    link.tell(new NodeLink.Ask(request, reply));
    CompletableFuture<T> result = new CompletableFuture<>();
    reply.whenComplete(
        (answer, failure) -> {
          try {
            if (failure != null) {
              result.completeExceptionally(Failures.unwrap(failure));
            } else if (answer instanceof GatewayProtocol.Failed failed) {
              result.completeExceptionally(Failures.raise(failed, node));
            } else {
              result.complete(onReply.apply(answer));
            }
          } catch (RuntimeException e) {
            result.completeExceptionally(e);
          }
        });
    return result;
  }
}
