package dev.openaccel.cluster;

import java.util.Objects;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * The messages of the bulk lane between one node's {@link BulkSender} and another node's {@link
 * BulkReceiver}. Internal.
 */
final class BulkProtocol {
  private BulkProtocol() {}

  /**
   * Bytes {@code data[start, start + length)} of transfer {@code transferId}, for its offset {@code
   * offset}. The array is shared, never written after it was handed over; the serializer writes
   * only the slice, so the sender never copies it. With {@code pooled} (never on the wire) the
   * message owns a whole {@link ChunkPool} array, which the serializer gives back once written.
   */
  record Chunk(
      long transferId,
      long offset,
      byte[] data,
      int start,
      int length,
      ActorRef<Credit> replyTo,
      boolean pooled)
      implements BulkMessage {
    Chunk {
      Objects.requireNonNull(data, "data");
      Objects.requireNonNull(replyTo, "replyTo");
      if (start < 0 || length < 0 || start + length > data.length) {
        throw new IllegalArgumentException(
            "chunk slice [" + start + ", +" + length + ") outside " + data.length + " bytes");
      }
    }

    Chunk(long transferId, long offset, byte[] data, int start, int length, ActorRef<Credit> to) {
      this(transferId, offset, data, start, length, to, false);
    }

    /** The chunk's bytes as an array of their own length. */
    byte[] bytes() {
      if (start == 0 && length == data.length) {
        return data;
      }
      byte[] copy = new byte[length];
      System.arraycopy(data, start, copy, 0, length);
      return copy;
    }
  }

  /** The receiver has the chunk at {@code offset} of {@code transferId}: its bytes are credit. */
  record Credit(long transferId, long offset, int length) implements BulkMessage {}
}
