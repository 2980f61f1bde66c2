package dev.openaccel.cluster;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.Stream;
import java.nio.ByteBuffer;
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
 * only by the events their requester waited on run on streams of their own per device: stores of a
 * copy on a transfer stream (whose copy-ins wait for chunks), and the reads of every buffer sent
 * from here ({@link BufferSource}) on a read stream, which runs nothing else and so never waits for
 * the network. Internal.
 *
 * <p>Owns: one transfer stream and one read stream per device. Thread-safe: every method only
 * enqueues on streams or reads concurrent maps.
 */
final class Transfers {
  private final LocalNode local;
  private final Function<String, NodePort> ports;
  private final Inbox inbox;
  private final ChunkPool pool;
  private final Map<Device, Stream> transferStreams = new ConcurrentHashMap<>();
  private final Map<Device, Stream> readStreams = new ConcurrentHashMap<>();

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
    copyIn(stream, buffer, from, transferId, length, true);
  }

  /** Reads on the stream {@code streamId}, in its order. */
  CompletionStage<byte[]> read(
      Device device, long streamId, long bufferId, int offset, int length) {
    Stream stream = local.stream(device, streamId);
    return readOn(stream, local.buffer(bufferId, stream), offset, length);
  }

  /**
   * The bytes {@code [offset, offset + length)} of a buffer as a source for the bulk lane, read a
   * part at a time on the device's read stream as the sender has room (a pull served by this node:
   * ordered only by the events the requester waited on).
   *
   * @throws IllegalArgumentException if the buffer is unknown or the range is outside it
   */
  BulkSource source(long bufferId, long offset, long length) {
    return source(local.buffer(bufferId), offset, length);
  }

  /** Like {@link #source(long, long, long)}, for a buffer at hand (a push from this node). */
  BulkSource source(DeviceBuffer buffer, long offset, long length) {
    Stream reads = readStreams.computeIfAbsent(buffer.device(), this::newStream);
    return new BufferSource(reads, buffer, offset, length, pool);
  }

  /** Writes bulk transfer {@code transferId} of {@code from} on the buffer's transfer stream. */
  CompletionStage<Void> storeFrom(String from, long bufferId, long transferId, int length) {
    DeviceBuffer buffer = local.buffer(bufferId);
    Stream stream = transferStream(buffer.device());
    buffer.recordStream(stream);
    return copyIn(stream, buffer, from, transferId, length, false);
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
   * them, then puts them. A lost chunk fails the result (and, with {@code failStream}, the wait, so
   * the stream's next sync reports it).
   */
  CompletableFuture<Void> copyIn(
      Stream stream,
      DeviceBuffer buffer,
      String from,
      long transferId,
      long length,
      boolean failStream) {
    List<CompletableFuture<byte[]>> chunks = new ArrayList<>();
    for (int i = 0; i < NodeCopy.chunks(length); i++) { // one empty chunk if length is 0
      long offset = (long) i * NodeCopy.CHUNK;
      chunks.add(inbox.expect(new Inbox.Key(from, transferId, offset), true));
    }
    return copyIn(stream, buffer, 0, chunks, failStream);
  }

  /**
   * The stream waits for {@code chunks}, then puts them one after the other from {@code offset} of
   * {@code buffer} (each but the last {@link NodeCopy#CHUNK} bytes long), {@link NodeCopy#BATCH} at
   * a time: one wait and one kernel per batch; their arrays then go back to the {@link ChunkPool}.
   * The result completes once the last batch is in, exceptionally with the first failure of a chunk
   * or a kernel. With {@code failStream} (a caller's stream) failures also fail the stream's waits
   * and kernels, so its next sync reports them; without (this node's transfer stream, shared by the
   * requests of all nodes) they reach only the result, so one failed transfer never fails the
   * transfers after it.
   */
  CompletableFuture<Void> copyIn(
      Stream stream,
      DeviceBuffer buffer,
      long offset,
      List<CompletableFuture<byte[]>> chunks,
      boolean failStream) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    if (chunks.isEmpty()) {
      done.complete(null);
    }
    CompletableFuture<Void> all = CompletableFuture.allOf(chunks.toArray(CompletableFuture[]::new));
    for (int first = 0; first < chunks.size(); first += NodeCopy.BATCH) {
      List<CompletableFuture<byte[]>> batch =
          chunks.subList(first, Math.min(first + NodeCopy.BATCH, chunks.size()));
      long at = offset + (long) first * NodeCopy.CHUNK;
      boolean last = first + NodeCopy.BATCH >= chunks.size();
      CompletableFuture<Void> arrived =
          CompletableFuture.allOf(batch.toArray(CompletableFuture[]::new));
      stream.waitFor(failStream ? arrived : arrived.exceptionally(failure -> null));
      stream.launch(
          "copy-in",
          context -> {
            try {
              put(context.buffer(0), at, batch);
            } catch (RuntimeException failure) {
              done.completeExceptionally(failure);
              if (failStream) {
                throw failure;
              }
            }
            if (last) {
              Failures.relay(all, done);
            }
          },
          buffer);
    }
    return done;
  }

  /** Puts the chunks that arrived (a failed one already failed the wait or the result). */
  private void put(ByteBuffer target, long at, List<CompletableFuture<byte[]>> batch) {
    for (int i = 0; i < batch.size(); i++) {
      if (!batch.get(i).isCompletedExceptionally()) {
        byte[] bytes = batch.get(i).join();
        try {
          target.put((int) (at + (long) i * NodeCopy.CHUNK), bytes);
        } finally {
          inbox.recycle(bytes);
        }
      }
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
    return transferStreams.computeIfAbsent(device, this::newStream);
  }

  private Stream newStream(Device device) {
    return local.accelerator().newStream(device);
  }
}
