package dev.openaccel.cluster;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.EventHandle;
import java.time.Duration;
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

  RemotePort(String node, ActorRef<NodeLink.Command> link, Duration controlTimeout) {
    this.node = node;
    this.link = link;
    this.controlTimeout = controlTimeout;
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
    tell(new GatewayProtocol.Launch(device, streamId, kernel, args, buffers));
  }

  @Override
  public CompletionStage<EventHandle> record(Device device, long streamId, long eventId) {
    return control(
        "record",
        (id, replyTo) -> new GatewayProtocol.Record(id, device, streamId, eventId, replyTo),
        reply -> ((GatewayProtocol.Recorded) reply).handle());
  }

  @Override
  public void waitEvent(Device device, long streamId, EventHandle handle) {
    tell(new GatewayProtocol.Wait(device, streamId, handle));
  }

  @Override
  public CompletionStage<Void> synchronize(Device device, long streamId) {
    return ask(
        (id, replyTo) -> new GatewayProtocol.Synchronize(id, device, streamId, replyTo),
        reply -> null);
  }

  @Override
  public void closeEvent(long eventId) {
    tell(new GatewayProtocol.CloseEvent(eventId));
  }

  @Override
  public CompletionStage<Long> allocate(Device device, long bytes) {
    return control(
        "allocate",
        (id, replyTo) -> new GatewayProtocol.Allocate(id, device, bytes, replyTo),
        reply -> ((GatewayProtocol.Allocated) reply).bufferId());
  }

  @Override
  public void free(long bufferId) {
    tell(new GatewayProtocol.Free(bufferId));
  }

  @Override
  public void write(Device device, long streamId, long bufferId, int offset, byte[] bytes) {
    tell(new GatewayProtocol.Write(device, streamId, bufferId, offset, bytes));
  }

  @Override
  public CompletionStage<byte[]> read(
      Device device, long streamId, long bufferId, int offset, int length) {
    return ask(
        (id, replyTo) ->
            new GatewayProtocol.Read(id, device, streamId, bufferId, offset, length, replyTo),
        reply -> ((GatewayProtocol.Bytes) reply).bytes());
  }

  @Override
  public void copy(Device device, long streamId, RemoteBuffer src, RemoteBuffer dst) {
    tell(new GatewayProtocol.Copy(device, streamId, src, dst));
  }

  @Override
  public CompletionStage<byte[]> fetch(long bufferId, int offset, int length) {
    return ask(
        (id, replyTo) -> new GatewayProtocol.Fetch(id, bufferId, offset, length, replyTo),
        reply -> ((GatewayProtocol.Bytes) reply).bytes());
  }

  @Override
  public CompletionStage<Void> store(long bufferId, int offset, byte[] bytes) {
    return ask(
        (id, replyTo) -> new GatewayProtocol.Store(id, bufferId, offset, bytes, replyTo),
        reply -> null);
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

  private void tell(GatewayProtocol.Command command) {
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
