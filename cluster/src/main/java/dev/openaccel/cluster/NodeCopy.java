package dev.openaccel.cluster;

import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Stream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * One buffer copy enqueued on a stream of this node, where the source or the destination (or both)
 * is on this node. Internal.
 *
 * <p>Like a peer copy on one CUDA stream, the copy is ordered on that stream only and is complete,
 * for what the stream records next, when the bytes are in the destination. The other node serves
 * its side on a transfer stream of its own; order it against its other work with events. Bytes
 * cross the wire on the bulk lane ({@link Bulk}) in chunks of {@link #CHUNK} bytes, well below
 * Artery's default maximum frame size for large messages. A pull asks for {@link #BATCH} chunks per
 * request and keeps at most {@link #PULL_AHEAD} requests outstanding, so the owner reads only what
 * is about to be sent.
 */
final class NodeCopy {
  /**
   * Bytes per message: 256 KiB. Larger chunks would cost fewer messages per byte, but every chunk
   * array the {@link ChunkPool} does not have at hand is a new one, and G1 treats an array of half
   * a region or more as humongous (regions are 1 MiB for heaps up to 2-4 GiB): 1 MiB chunks, when
   * each was a new array, took two regions each, and the bulk tests ran out of a 3 GiB heap that
   * 256 KiB chunks fit in.
   */
  static final int CHUNK = 256 * 1024;

  /**
   * Chunks one pull asks for in one request (read by one kernel on the owner), and chunks one
   * copy-in kernel writes: 2 MiB.
   */
  static final int BATCH = 8;

  /** Requests one pull keeps outstanding, so at most 4 MiB are read ahead of the copy-in. */
  static final int PULL_AHEAD = 2;

  /** The chunks {@code length} bytes take, at least one. */
  static int chunks(long length) {
    return (int) Math.max(1, (length + CHUNK - 1) / CHUNK);
  }

  private final LocalNode local;
  private final Transfers transfers;
  private final Function<String, NodePort> ports;
  private final Stream stream;

  NodeCopy(LocalNode local, Transfers transfers, Function<String, NodePort> ports, Stream stream) {
    this.local = local;
    this.transfers = transfers;
    this.ports = ports;
    this.stream = stream;
  }

  /**
   * Enqueues the copy.
   *
   * @throws IllegalArgumentException naming both sizes if they differ, or if neither buffer is on
   *     this node
   */
  void copy(RemoteBuffer src, RemoteBuffer dst) {
    if (src.size() != dst.size()) {
      throw new IllegalArgumentException(
          "copy size mismatch: source has " + src.size() + " bytes, destination " + dst.size());
    }
    boolean srcHere = src.node().equals(local.node());
    boolean dstHere = dst.node().equals(local.node());
    if (srcHere && dstHere) {
      stream.copy(local.buffer(src.bufferId(), stream), local.buffer(dst.bufferId(), stream));
    } else if (srcHere) {
      push(local.buffer(src.bufferId(), stream), dst);
    } else if (dstHere) {
      pull(src, local.buffer(dst.bufferId(), stream));
    } else {
      throw new IllegalArgumentException(
          "a copy runs on a stream of the source's or the destination's node; "
              + local.node()
              + " is neither "
              + src.node()
              + " nor "
              + dst.node());
    }
  }

  /** Reads the buffer in stream order, ships it, and holds the stream until it is stored. */
  private void push(DeviceBuffer source, RemoteBuffer dst) {
    NodePort target = ports.apply(dst.node());
    CompletableFuture<Void> stored = new CompletableFuture<>();
    stream.launch(
        "copy-out",
        context -> {
          try {
            byte[] bytes = new byte[(int) dst.size()];
            context.buffer(0).get(0, bytes);
            relay(target.store(dst.bufferId(), bytes), stored);
          } catch (RuntimeException failure) {
            stored.completeExceptionally(failure);
            throw failure;
          }
        },
        source);
    stream.waitFor(Failures.naming(stored, "copy to " + dst));
  }

  /**
   * Requests the chunks when the stream gets here, {@link #BATCH} per request and {@link
   * #PULL_AHEAD} requests ahead, and writes each batch in as it comes. A failed request fails the
   * chunks not yet requested after it.
   */
  private void pull(RemoteBuffer src, DeviceBuffer target) {
    NodePort source = ports.apply(src.node());
    List<CompletableFuture<byte[]>> chunks = new ArrayList<>();
    for (int i = 0; i < chunks(src.size()); i++) {
      chunks.add(new CompletableFuture<>());
    }
    int batches = (chunks.size() + BATCH - 1) / BATCH;
    stream.launch(
        "copy-fetch",
        () -> {
          for (int b = 0; b < Math.min(PULL_AHEAD, batches); b++) {
            request(source, src, chunks, b);
          }
        });
    transfers.copyIn(stream, target, 0, chunks, true);
  }

  private static void request(
      NodePort source, RemoteBuffer src, List<CompletableFuture<byte[]>> chunks, int batch) {
    int first = batch * BATCH;
    int last = Math.min(first + BATCH, chunks.size());
    int offset = first * CHUNK;
    int length = (int) Math.min((long) (last - first) * CHUNK, src.size() - offset);
    List<CompletableFuture<byte[]>> got = source.fetch(src.bufferId(), offset, length);
    for (int i = first; i < last; i++) {
      relay(got.get(i - first), chunks.get(i));
    }
    CompletableFuture.allOf(chunks.subList(first, last).toArray(CompletableFuture[]::new))
        .whenComplete(
            (all, failure) -> {
              int next = batch + PULL_AHEAD;
              if (next * BATCH >= chunks.size()) {
                return;
              }
              if (failure == null) {
                request(source, src, chunks, next);
              } else {
                for (int j = next * BATCH; j < chunks.size(); j++) {
                  if ((j / BATCH - batch) % PULL_AHEAD == 0) {
                    chunks.get(j).completeExceptionally(Failures.unwrap(failure));
                  }
                }
              }
            });
  }

  private static <T> void relay(CompletionStage<T> from, CompletableFuture<? super T> to) {
    from.whenComplete(
        (value, failure) -> {
          if (failure == null) {
            to.complete(value);
          } else {
            to.completeExceptionally(Failures.unwrap(failure));
          }
        });
  }
}
