package dev.openaccel.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;

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
    return of(bytes, 0, bytes.length);
  }

  /**
   * {@code length} bytes of {@code bytes} from {@code start}, which nobody writes until the
   * receiver has them (not only until the send completed: the serializer reads a slice later, when
   * Artery encodes its chunk): slices, no copies.
   */
  static BulkSource of(byte[] bytes, int start, int length) {
    Objects.checkFromIndexSize(start, length, bytes.length);
    return sliced(length, (at, size) -> new Slice(bytes, start + at, size, false));
  }

  /**
   * {@code length} bytes of {@code bytes} from {@code start}, which the caller does not write until
   * the send completed: each read copies them into arrays of {@code pool}, which the serializer
   * gives back once written, so the bytes may change after the send completed.
   */
  static BulkSource copied(byte[] bytes, int start, int length, ChunkPool pool) {
    Objects.checkFromIndexSize(start, length, bytes.length);
    return sliced(
        length,
        (at, size) -> {
          byte[] chunk = pool.take(NodeCopy.CHUNK);
          System.arraycopy(bytes, start + at, chunk, 0, size);
          return new Slice(chunk, 0, size, true);
        });
  }

  /**
   * A piece of at most one chunk that arrived in an array of its own, handed over to be sent on and
   * never touched again: an array of a whole chunk goes back to the {@link ChunkPool} once written.
   */
  static BulkSource handedOver(byte[] piece) {
    if (piece.length != NodeCopy.CHUNK) {
      return of(piece);
    }
    return sliced(piece.length, (at, size) -> new Slice(piece, 0, size, true));
  }

  private static BulkSource sliced(int total, BiFunction<Integer, Integer, Slice> slicer) {
    return new BulkSource() {
      @Override
      public long length() {
        return total;
      }

      @Override
      public CompletionStage<List<Slice>> read(long from, int length) {
        List<Slice> slices = new ArrayList<>();
        int at = (int) from;
        do {
          int size = Math.min(NodeCopy.CHUNK, (int) from + length - at);
          slices.add(slicer.apply(at, size));
          at += size;
        } while (at < from + length);
        return CompletableFuture.completedStage(slices);
      }
    };
  }
}
