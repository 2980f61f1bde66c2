package dev.openaccel.cluster;

import java.util.ArrayDeque;

/**
 * One transfer a {@link BulkSender} is sending: its source, what it has read and sent. Internal.
 *
 * <p>Owned by that sender: only its actor reads or writes the fields.
 */
final class Outgoing {
  final BulkSender.Send send;
  final long length;
  final int chunks;
  final ArrayDeque<BulkSource.Slice> ready = new ArrayDeque<>();
  int readChunks; // chunks asked of the source
  int sentChunks;
  boolean reading;

  Outgoing(BulkSender.Send send) {
    this.send = send;
    this.length = send.source().length();
    this.chunks = NodeCopy.chunks(length);
  }
}
