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
   * offset}, the {@code seq}-th chunk its sender sent to this receiver. With {@code ack} the sender
   * asks for a {@link Credit} covering every chunk up to this one: it asks at the end of each burst
   * and at least every {@link BulkSender#ACK_EVERY} chunks, so credit comes back in a few messages
   * per window, not one per chunk. The array is shared, never written after it was handed over; the
   * serializer writes only the slice, so the sender never copies it. With {@code pooled} (never on
   * the wire) the message owns a whole {@link ChunkPool} array, which the serializer gives back
   * once written.
   */
  record Chunk(
      long transferId,
      long offset,
      byte[] data,
      int start,
      int length,
      ActorRef<Credit> replyTo,
      boolean pooled,
      long seq,
      boolean ack)
      implements BulkMessage {
    Chunk {
      Objects.requireNonNull(data, "data");
      Objects.requireNonNull(replyTo, "replyTo");
      if (start < 0 || length < 0 || start + length > data.length) {
        throw new IllegalArgumentException(
            "chunk slice [" + start + ", +" + length + ") outside " + data.length + " bytes");
      }
    }

    /** This chunk, asking for credit. */
    Chunk askingForCredit() {
      return new Chunk(transferId, offset, data, start, length, replyTo, pooled, seq, true);
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

  /**
   * The receiver has had every chunk its sender numbered up to {@code seq} (or given up on it):
   * their bytes are credit again. Chunks on one lane arrive in the order they were sent, so one
   * credit covers all before it.
   */
  record Credit(long seq) implements BulkMessage {}

  /**
   * The sender gives up on transfer {@code transferId} (its source could not be read): the {@code
   * chunks} chunks from {@code offset} on will not come, and whoever waits for them fails with
   * {@code reason}. It travels behind the chunks already sent, on the same lane.
   */
  record Abort(long transferId, long offset, int chunks, String reason, ActorRef<Credit> replyTo)
      implements BulkMessage {
    Abort {
      Objects.requireNonNull(reason, "reason");
      Objects.requireNonNull(replyTo, "replyTo");
    }
  }
}
