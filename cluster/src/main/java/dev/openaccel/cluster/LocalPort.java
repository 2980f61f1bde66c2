package dev.openaccel.cluster;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * The local node as a {@link NodePort}: direct calls into {@link LocalNode}, no messages. Misuse
 * found here fails the returned stage, as it would for another node. Internal; thread-safe.
 */
final class LocalPort implements NodePort {
  private final LocalNode local;

  LocalPort(LocalNode local) {
    this.local = local;
  }

  @Override
  public String node() {
    return local.node();
  }

  @Override
  public CompletionStage<List<Device>> describe() {
    return call(local::devices);
  }

  @Override
  public CompletionStage<Long> newStream(Device device, int priority) {
    return call(() -> local.newStream(device, priority));
  }

  @Override
  public void launch(Device device, long streamId, String kernel, byte[] args, List<Long> buffers) {
    local.launch(device, streamId, kernel, args, buffers);
  }

  @Override
  public CompletionStage<EventHandle> record(Device device, long streamId, long eventId) {
    return call(() -> local.record(local.node(), device, streamId, eventId));
  }

  @Override
  public CompletionStage<Void> pin(EventHandle handle, long pinId, String awaiter) {
    return call(
        () -> {
          local.pin(local.node(), handle, pinId, awaiter);
          return null;
        });
  }

  @Override
  public CompletionStage<Void> awaitPin(String pinner, long pinId) {
    return local.awaitPin(pinner, pinId);
  }

  @Override
  public void waitEvent(
      Device device, long streamId, EventHandle handle, String pinner, long pinId) {
    local.waitEvent(device, streamId, handle, pinner, pinId);
  }

  @Override
  public CompletionStage<Void> synchronize(Device device, long streamId) {
    return Failures.guard(() -> local.synchronize(device, streamId));
  }

  @Override
  public CompletionStage<Void> closeEvent(long eventId) {
    return call(
        () -> {
          local.closeEvent(local.node(), eventId);
          return null;
        });
  }

  @Override
  public CompletionStage<Long> allocate(Device device, long bytes) {
    return call(() -> local.allocate(local.node(), device, bytes));
  }

  @Override
  public CompletionStage<Void> free(long bufferId) {
    return call(
        () -> {
          local.free(local.node(), bufferId);
          return null;
        });
  }

  @Override
  public void write(Device device, long streamId, long bufferId, byte[] bytes) {
    local.write(device, streamId, bufferId, bytes);
  }

  @Override
  public CompletionStage<byte[]> read(
      Device device, long streamId, long bufferId, int offset, int length) {
    return Failures.guard(() -> local.transfers().read(device, streamId, bufferId, offset, length));
  }

  @Override
  public void copy(Device device, long streamId, RemoteBuffer src, RemoteBuffer dst) {
    local.transfers().copy(device, streamId, src, dst);
  }

  /** Never called: a copy within this node is a stream copy. Fails every chunk, saying so. */
  @Override
  public List<CompletableFuture<byte[]>> fetch(long bufferId, int offset, int length) {
    List<CompletableFuture<byte[]>> chunks = new ArrayList<>();
    for (int i = 0; i < NodeCopy.chunks(length); i++) {
      chunks.add(CompletableFuture.failedFuture(withinNode("fetch")));
    }
    return chunks;
  }

  /** Never called: a copy within this node is a stream copy. Fails, saying so. */
  @Override
  public CompletionStage<Void> store(long bufferId, BulkSource source) {
    return CompletableFuture.failedStage(withinNode("store"));
  }

  private UnsupportedOperationException withinNode(String what) {
    return new UnsupportedOperationException(
        what + " serves other nodes; a copy within node " + local.node() + " is a stream copy");
  }

  @Override
  public CompletionStage<EventState> latest(EventHandle handle, boolean await) {
    return Failures.guard(
        () -> {
          Event view = local.openLocal(handle);
          if (!await) {
            return CompletableFuture.completedStage(new EventState(0, view.query(), 0));
          }
          return view.completion().thenApply(ok -> new EventState(0, true, System.nanoTime()));
        });
  }

  private static <T> CompletionStage<T> call(Supplier<T> body) {
    return Failures.guard(() -> CompletableFuture.completedStage(body.get()));
  }
}
