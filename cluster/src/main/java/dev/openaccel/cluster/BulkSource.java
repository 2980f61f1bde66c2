package dev.openaccel.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Bytes a {@link BulkSender} sends, read a part at a time as it has room for them, so that a
 * transfer of any size keeps at most the sender's read-ahead on this node's heap. Internal.
 *
 * <p>The sender calls {@link #read} for consecutive ranges, one at a time, and owns the slices it
 * gets until it has sent or dropped them.
 */
interface BulkSource {

  /** The bytes the source holds. */
  long length();

  /**
   * Reads {@code [from, from + length)} as slices of {@link NodeCopy#CHUNK} bytes (the last may be
   * shorter; one empty slice if {@code length} is 0). Completes exceptionally if the bytes cannot
   * be read; the transfer then fails.
   */
  CompletionStage<List<Slice>> read(long from, int length);

  /**
   * Bytes {@code data[start, start + length)} of one chunk; a {@code pooled} array is a whole
   * {@link ChunkPool} array handed over with the slice.
   */
  record Slice(byte[] data, int start, int length, boolean pooled) {
    public Slice {
      Objects.requireNonNull(data, "data");
      if (pooled && (start != 0 || data.length != NodeCopy.CHUNK)) {
        throw new IllegalArgumentException("a pooled slice is one whole chunk array");
      }
    }
  }

  /** The bytes of an array the caller hands over and never writes again: slices, no copies. */
  static BulkSource of(byte[] bytes) {
    Objects.requireNonNull(bytes, "bytes");
    return new BulkSource() {
      @Override
      public long length() {
        return bytes.length;
      }

      @Override
      public CompletionStage<List<Slice>> read(long from, int length) {
        List<Slice> slices = new ArrayList<>();
        int at = (int) from;
        do {
          int size = Math.min(NodeCopy.CHUNK, (int) from + length - at);
          slices.add(new Slice(bytes, at, size, false));
          at += size;
        } while (at < from + length);
        return CompletableFuture.completedStage(slices);
      }
    };
  }
}
