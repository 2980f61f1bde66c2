package dev.openaccel.cluster;

import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Stream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * One buffer copy enqueued on a stream of this node, where the source or the destination (or both)
 * is on this node. Internal.
 *
 * <p>Like a peer copy on one CUDA stream, the copy is ordered on that stream only and is complete,
 * for what the stream records next, when the bytes are in the destination. The other node serves
 * its side on a transfer stream of its own; order it against its other work with events. Bytes
 * cross the wire on the bulk lane ({@link Bulk}) in chunks of {@link #CHUNK} bytes, well below
 * Artery's default maximum frame size for large messages. Either way the bytes cross in one
 * transfer, sent by the node that has them through its {@link BulkSender}: a pull is a single
 * request, answered by the owner pushing the range under the same credit window as a push.
 */
final class NodeCopy {
  /**
   * Bytes per message: 384 KiB, below half a G1 region of heaps up to 2-4 GiB (1 MiB regions), so
   * that neither a chunk array the {@link ChunkPool} does not have at hand nor Artery's copy of an
   * inbound frame is a humongous object: 1 MiB chunks, when each was a new array, took two regions
   * each, and the bulk tests ran out of a 3 GiB heap. Against 256 KiB, 384 KiB chunks moved copies
   * from about 0.75x to about 1.0x the rate of raw {@code byte[]} messages; 512 KiB (humongous)
   * gained less and slowed the event hop under bulk load.
   */
  static final int CHUNK = 384 * 1024;

  /** Chunks one read kernel of a sent buffer reads, and one copy-in kernel writes: 3 MiB. */
  static final int BATCH = 8;

  /** The chunks {@code length} bytes take, at least one. */
  static int chunks(long length) {
    return (int) Math.max(1, chunksIn(length));
  }

  /** The chunks {@code bytes} take, rounded up: none for none (a window's count of chunks). */
  static long chunksIn(long bytes) {
    return (bytes + CHUNK - 1) / CHUNK;
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

  /**
   * When the stream gets here, ships the buffer through the bulk sender (which reads it a part at a
   * time as the credit window allows), and holds the stream until it is stored: nothing later on
   * the stream can change the bytes meanwhile.
   */
  private void push(DeviceBuffer source, RemoteBuffer dst) {
    NodePort target = ports.apply(dst.node());
    BulkSource bytes = transfers.source(source, 0, dst.size());
    CompletableFuture<Void> stored = new CompletableFuture<>();
    stream.launch(
        "copy-out",
        () -> {
          try {
            Failures.relay(target.store(dst.bufferId(), bytes), stored);
          } catch (RuntimeException failure) {
            stored.completeExceptionally(failure); // else the wait below would never end
            throw failure;
          }
        });
    stream.waitFor(Failures.naming(stored, "copy to " + dst));
  }

  /**
   * Requests the whole range when the stream gets here (the owner streams it as the credit window
   * allows), and writes the chunks in, {@link #BATCH} at a time, as they come.
   */
  private void pull(RemoteBuffer src, DeviceBuffer target) {
    NodePort source = ports.apply(src.node());
    List<CompletableFuture<byte[]>> chunks = new ArrayList<>();
    for (int i = 0; i < chunks(src.size()); i++) {
      chunks.add(new CompletableFuture<>());
    }
    stream.launch(
        "copy-fetch",
        () -> {
          List<CompletableFuture<byte[]>> got = source.fetch(src.bufferId(), 0, (int) src.size());
          for (int i = 0; i < chunks.size(); i++) {
            Failures.relay(got.get(i), chunks.get(i));
          }
        });
    transfers.copyIn(stream, target, 0, chunks, true);
  }
}
