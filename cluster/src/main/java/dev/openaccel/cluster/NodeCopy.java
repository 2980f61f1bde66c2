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
 * Artery's default maximum frame size for large messages. A pull keeps at most {@link #PULL_AHEAD}
 * chunk requests outstanding, so the owner reads only what is about to be sent.
 */
final class NodeCopy {
  /**
   * Bytes per message: 256 KiB. Larger chunks would cost fewer messages per byte, but the receiver
   * allocates an array per chunk, and G1 treats an array of half a region or more as humongous
   * (regions are 1 MiB for heaps up to 2-4 GiB): 1 MiB chunks took two regions each, and the bulk
   * tests ran out of a 3 GiB heap that 256 KiB chunks fit in.
   */
  static final int CHUNK = 256 * 1024;

  /** Chunk requests one pull keeps outstanding. */
  static final int PULL_AHEAD = 8;

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
    local.blockOn(stream, Failures.naming(stored, "copy to " + dst));
  }

  /**
   * Requests the chunks when the stream gets here, {@link #PULL_AHEAD} at a time, and writes each
   * in as it comes. A failed request fails the chunks not yet requested with it.
   */
  private void pull(RemoteBuffer src, DeviceBuffer target) {
    NodePort source = ports.apply(src.node());
    List<CompletableFuture<byte[]>> chunks = new ArrayList<>();
    for (long offset = 0; offset < src.size(); offset += CHUNK) {
      chunks.add(new CompletableFuture<>());
    }
    stream.launch(
        "copy-fetch",
        () -> {
          for (int i = 0; i < Math.min(PULL_AHEAD, chunks.size()); i++) {
            request(source, src, chunks, i);
          }
        });
    for (int i = 0; i < chunks.size(); i++) {
      transfers.copyIn(stream, target, (long) i * CHUNK, chunks.get(i));
    }
  }

  private static void request(
      NodePort source, RemoteBuffer src, List<CompletableFuture<byte[]>> chunks, int i) {
    int offset = i * CHUNK;
    CompletableFuture<byte[]> chunk = chunks.get(i);
    relay(source.fetch(src.bufferId(), offset, chunk(offset, src.size())), chunk);
    chunk.whenComplete(
        (bytes, failure) -> {
          int next = i + PULL_AHEAD;
          if (next >= chunks.size()) {
            return;
          }
          if (failure == null) {
            request(source, src, chunks, next);
          } else {
            for (int j = next; j < chunks.size(); j += PULL_AHEAD) {
              chunks.get(j).completeExceptionally(failure);
            }
          }
        });
  }

  private static int chunk(int offset, long size) {
    return (int) Math.min(CHUNK, size - offset);
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
