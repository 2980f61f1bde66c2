package dev.openaccel.cluster;

import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Stream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The bytes {@code [offset, offset + length)} of a device buffer of this node as a {@link
 * BulkSource}: each read is one kernel on a stream that runs nothing but such reads (so a read
 * never waits behind work that waits for the network), into arrays of the {@link ChunkPool}.
 * Whoever makes one has ordered it after the work that wrote the bytes: a pushing stream reached
 * the copy, a puller waited for the events covering them. Internal.
 *
 * <p>Owns nothing mutable; the slices a read returns pass to the caller.
 */
final class BufferSource implements BulkSource {
  private final Stream readStream;
  private final DeviceBuffer buffer;
  private final long offset;
  private final long length;
  private final ChunkPool pool;

  /**
   * @throws IllegalArgumentException naming the range and the size if the range is not inside the
   *     buffer
   */
  BufferSource(Stream readStream, DeviceBuffer buffer, long offset, long length, ChunkPool pool) {
    if (offset < 0 || length < 0 || offset + length > buffer.size()) {
      throw new IllegalArgumentException(
          "bytes ["
              + offset
              + ", "
              + (offset + length)
              + ") are outside a buffer of "
              + buffer.size()
              + " bytes");
    }
    this.readStream = readStream;
    this.buffer = buffer;
    this.offset = offset;
    this.length = length;
    this.pool = pool;
    buffer.recordStream(readStream);
  }

  @Override
  public long length() {
    return length;
  }

  @Override
  public CompletionStage<List<Slice>> read(long from, int size) {
    CompletableFuture<List<Slice>> result = new CompletableFuture<>();
    try {
      launch(from, size, result);
    } catch (RuntimeException misuse) { // e.g. the buffer was freed meanwhile
      result.completeExceptionally(misuse);
    }
    return result;
  }

  private void launch(long from, int size, CompletableFuture<List<Slice>> result) {
    readStream.launch(
        "bulk-read",
        context -> {
          List<Slice> slices = new ArrayList<>();
          try {
            int at = 0;
            do {
              byte[] chunk = pool.take(Math.min(NodeCopy.CHUNK, size - at));
              slices.add(new Slice(chunk, 0, chunk.length, chunk.length == NodeCopy.CHUNK));
              context.buffer(0).get((int) (offset + from + at), chunk);
              at += chunk.length;
            } while (at < size);
            result.complete(slices);
          } catch (RuntimeException failure) {
            slices.forEach(slice -> pool.give(slice.data()));
            result.completeExceptionally(failure); // the transfer fails and reports it
          }
        },
        buffer);
  }
}
