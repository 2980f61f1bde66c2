package dev.openaccel.cluster;

import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.internal.AcceleratorCore;
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
 * cross the wire in chunks of {@link #CHUNK} bytes, well below Artery's default maximum frame size;
 * all chunks are requested at once.
 */
final class NodeCopy {
  /** Bytes per message. */
  static final int CHUNK = 128 * 1024;

  private final LocalNode local;
  private final Function<String, NodePort> ports;
  private final Stream stream;

  NodeCopy(LocalNode local, Function<String, NodePort> ports, Stream stream) {
    this.local = local;
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

  /** Reads the chunks in stream order, ships them, and holds the stream until all are stored. */
  private void push(DeviceBuffer source, RemoteBuffer dst) {
    NodePort target = ports.apply(dst.node());
    CompletableFuture<Void> stored = new CompletableFuture<>();
    stream.launch(
        "copy-out",
        context -> {
          try {
            List<CompletableFuture<Void>> acks = new ArrayList<>();
            for (int offset = 0; offset < dst.size(); offset += CHUNK) {
              byte[] bytes = new byte[chunk(offset, dst.size())];
              context.buffer(0).get(offset, bytes);
              acks.add(target.store(dst.bufferId(), offset, bytes).toCompletableFuture());
            }
            relay(CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new)), stored);
          } catch (RuntimeException failure) {
            stored.completeExceptionally(failure);
            throw failure;
          }
        },
        source);
    blockOn(stored);
  }

  /** Requests all chunks when the stream gets here, waits for them, and writes them in. */
  private void pull(RemoteBuffer src, DeviceBuffer target) {
    NodePort source = ports.apply(src.node());
    List<CompletableFuture<byte[]>> chunks = new ArrayList<>();
    for (int offset = 0; offset < src.size(); offset += CHUNK) {
      chunks.add(new CompletableFuture<>());
    }
    stream.launch(
        "copy-fetch",
        () -> {
          for (int i = 0; i < chunks.size(); i++) {
            int offset = i * CHUNK;
            relay(source.fetch(src.bufferId(), offset, chunk(offset, src.size())), chunks.get(i));
          }
        });
    for (int i = 0; i < chunks.size(); i++) {
      CompletableFuture<byte[]> fetched = chunks.get(i);
      int offset = i * CHUNK;
      blockOn(fetched);
      stream.launch(
          "copy-in",
          context -> {
            // A failed fetch already failed the wait above, which reports it downstream.
            if (!fetched.isCompletedExceptionally()) {
              context.buffer(0).put(offset, fetched.join());
            }
          },
          target);
    }
  }

  private void blockOn(CompletionStage<?> signal) {
    AcceleratorCore.get(local.accelerator().system())
        .router(stream.deviceType())
        .blockOn(stream, signal);
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
