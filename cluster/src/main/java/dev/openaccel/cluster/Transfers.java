package dev.openaccel.cluster;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.Stream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The owner's side of bulk data: writes, reads and copies of this node's buffers whose bytes cross
 * the bulk lane ({@link Bulk}), each ordered on a stream. Requests of other nodes that are ordered
 * only by the events their requester waited on (fetches and stores of a copy) run on a transfer
 * stream per device. Internal.
 *
 * <p>Owns: one transfer stream per device. Thread-safe: every method only enqueues on streams or
 * reads concurrent maps.
 */
final class Transfers {
  private final LocalNode local;
  private final Function<String, NodePort> ports;
  private final Inbox inbox;
  private final ChunkPool pool;
  private final Map<Device, Stream> transferStreams = new ConcurrentHashMap<>();

  Transfers(LocalNode local, Function<String, NodePort> ports, Inbox inbox, ChunkPool pool) {
    this.local = local;
    this.ports = ports;
    this.inbox = inbox;
    this.pool = pool;
  }

  /**
   * Writes, in stream order, the bytes of bulk transfer {@code transferId} of node {@code from}.
   */
  void writeFrom(
      String from, Device device, long streamId, long bufferId, long transferId, int length) {
    Stream stream = local.stream(device, streamId);
    DeviceBuffer buffer;
    try {
      buffer = local.buffer(bufferId, stream);
    } catch (RuntimeException misuse) {
      LocalNode.failOn(stream, "write", misuse);
      return;
    }
    copyIn(stream, buffer, from, transferId, length);
  }

  /** Reads on the stream {@code streamId}, in its order. */
  CompletionStage<byte[]> read(
      Device device, long streamId, long bufferId, int offset, int length) {
    Stream stream = local.stream(device, streamId);
    return readOn(stream, local.buffer(bufferId, stream), offset, length);
  }

  /**
   * Reads {@code length} bytes from {@code offset} on the buffer's transfer stream (ordered only by
   * the events the requester waited on) into chunks of {@link NodeCopy#CHUNK} bytes, whole ones in
   * arrays of the {@link ChunkPool} that pass to the caller.
   */
  CompletionStage<List<byte[]>> fetch(long bufferId, int offset, int length) {
    DeviceBuffer buffer = local.buffer(bufferId);
    Stream stream = transferStream(buffer.device());
    buffer.recordStream(stream);
    int count = NodeCopy.chunks(length);
    List<byte[]> chunks = new ArrayList<>(count);
    stream.launch(
        "fetch",
        context -> {
          for (int i = 0; i < count; i++) {
            byte[] chunk = pool.take(Math.min(NodeCopy.CHUNK, length - i * NodeCopy.CHUNK));
            context.buffer(0).get(offset + i * NodeCopy.CHUNK, chunk);
            chunks.add(chunk);
          }
        },
        buffer);
    return whenReached(stream, chunks);
  }

  /** Writes bulk transfer {@code transferId} of {@code from} on the buffer's transfer stream. */
  CompletionStage<Void> storeFrom(String from, long bufferId, long transferId, int length) {
    DeviceBuffer buffer = local.buffer(bufferId);
    Stream stream = transferStream(buffer.device());
    buffer.recordStream(stream);
    copyIn(stream, buffer, from, transferId, length);
    return whenReached(stream, null);
  }

  /** Writes {@code bytes}, when they come, into the buffer on its transfer stream. */
  CompletionStage<Void> storeLocal(long bufferId, CompletableFuture<byte[]> bytes) {
    DeviceBuffer buffer = local.buffer(bufferId);
    Stream stream = transferStream(buffer.device());
    buffer.recordStream(stream);
    copyIn(stream, buffer, 0, List.of(bytes), false);
    return whenReached(stream, null);
  }

  void copy(Device device, long streamId, RemoteBuffer src, RemoteBuffer dst) {
    Stream stream = local.stream(device, streamId);
    try {
      new NodeCopy(local, this, ports, stream).copy(src, dst);
    } catch (RuntimeException misuse) {
      LocalNode.failOn(stream, "copy", misuse);
    }
  }

  /**
   * Writes the chunks of a bulk transfer into {@code buffer} in stream order: the stream waits for
   * them, then puts them. A lost chunk fails the wait, so the stream's next sync reports it.
   */
  void copyIn(Stream stream, DeviceBuffer buffer, String from, long transferId, long length) {
    List<CompletableFuture<byte[]>> chunks = new ArrayList<>();
    for (long offset = 0; offset < length; offset += NodeCopy.CHUNK) {
      chunks.add(inbox.expect(new Inbox.Key(from, transferId, offset), true));
    }
    copyIn(stream, buffer, 0, chunks, true);
  }

  /**
   * The stream waits for {@code chunks}, then puts them one after the other from {@code offset} of
   * {@code buffer} (each but the last {@link NodeCopy#CHUNK} bytes long), {@link NodeCopy#BATCH} at
   * a time: one wait and one kernel per batch. {@code pooled} chunks (those that came from the
   * {@link Inbox}) then go back to the {@link ChunkPool}.
   */
  void copyIn(
      Stream stream,
      DeviceBuffer buffer,
      long offset,
      List<CompletableFuture<byte[]>> chunks,
      boolean pooled) {
    for (int first = 0; first < chunks.size(); first += NodeCopy.BATCH) {
      List<CompletableFuture<byte[]>> batch =
          chunks.subList(first, Math.min(first + NodeCopy.BATCH, chunks.size()));
      long at = offset + (long) first * NodeCopy.CHUNK;
      stream.waitFor(CompletableFuture.allOf(batch.toArray(CompletableFuture[]::new)));
      stream.launch(
          "copy-in",
          context -> {
            for (int i = 0; i < batch.size(); i++) {
              // A failed chunk already failed the wait above, which reports it downstream.
              if (!batch.get(i).isCompletedExceptionally()) {
                byte[] bytes = batch.get(i).join();
                try {
                  context.buffer(0).put((int) (at + (long) i * NodeCopy.CHUNK), bytes);
                } finally {
                  if (pooled) {
                    inbox.recycle(bytes);
                  }
                }
              }
            }
          },
          buffer);
    }
  }

  CompletionStage<byte[]> readOn(Stream stream, DeviceBuffer buffer, int offset, int length) {
    byte[] out = new byte[length];
    stream.launch("read", context -> context.buffer(0).get(offset, out), buffer);
    return whenReached(stream, out);
  }

  /**
   * Completes with {@code value} when {@code stream} reaches this point, exceptionally if covered
   * work failed; unlike a stream synchronization it leaves the failure report for the stream's
   * owner.
   */
  static <T> CompletionStage<T> whenReached(Stream stream, T value) {
    Event reached = stream.recordEvent();
    CompletableFuture<T> result = new CompletableFuture<>();
    reached
        .completion()
        .whenComplete(
            (ok, failure) -> {
              reached.close();
              if (failure == null) {
                result.complete(value);
              } else {
                result.completeExceptionally(Failures.unwrap(failure));
              }
            });
    return result;
  }

  private Stream transferStream(Device device) {
    return transferStreams.computeIfAbsent(device, d -> local.accelerator().newStream(d));
  }
}
