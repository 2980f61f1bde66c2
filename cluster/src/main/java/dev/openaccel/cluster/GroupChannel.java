package dev.openaccel.cluster;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One member's end of a process group's messages: every message is a bulk-lane transfer whose id is
 * the group's tag and whose offset names the message, so a message is at most one bulk chunk and
 * travels in the sender's turn with every other transfer to that node (credits, window, loss
 * detection on node removal). Internal.
 *
 * <p>A message's name packs {@code kind} (3 bits), the operation's sequence number (29 bits), the
 * step of the algorithm (10 bits) and the piece of the data (22 bits). Owns nothing mutable.
 */
final class GroupChannel {
  /** Tags start here: far above any transfer id of the bulk lane (a counter from 1). */
  static final long TAG_BASE = 1L << 62;

  /** The largest group, so that a ring's steps fit their 10 bits. */
  static final int MAX_MEMBERS = 256;

  /** The most pieces one segment may have, so that pieces fit their 22 bits. */
  static final int MAX_PIECES = 1 << 22;

  static final int JOIN = 0;
  static final int DESCRIPTOR = 1;
  static final int DATA = 2;
  static final int ABORT = 3;

  private final String group;
  private final long tag;
  private final List<RemoteDevice> members;
  private final int rank;
  private final Bulk bulk;

  GroupChannel(String group, List<RemoteDevice> members, int rank, Bulk bulk) {
    this.group = group;
    this.tag = tagOf(group);
    this.members = List.copyOf(members);
    this.rank = rank;
    this.bulk = bulk;
  }

  /** The tag of the group named {@code group}: a 62-bit FNV-1a hash of its name, above TAG_BASE. */
  static long tagOf(String group) {
    long hash = 0xcbf29ce484222325L;
    for (byte b : group.getBytes(StandardCharsets.UTF_8)) {
      hash = (hash ^ (b & 0xff)) * 0x100000001b3L;
    }
    return TAG_BASE | (hash & (TAG_BASE - 1));
  }

  /** The name of a message. */
  static long message(int kind, long seq, int step, int piece) {
    return ((long) kind << 61)
        | ((seq & ((1L << 29) - 1)) << 32)
        | ((long) step << 22)
        | (piece & (MAX_PIECES - 1L));
  }

  String group() {
    return group;
  }

  long tag() {
    return tag;
  }

  List<RemoteDevice> members() {
    return members;
  }

  int rank() {
    return rank;
  }

  int size() {
    return members.size();
  }

  /** {@code member}, named for messages: {@code rank 2 (node/openreg:0)}. */
  String describe(int member) {
    return "rank " + member + " (" + members.get(member) + ")";
  }

  /**
   * Sends {@code bytes} (at most one bulk chunk, never written again) to {@code member}; completes
   * once handed to Artery.
   */
  CompletableFuture<Void> send(int member, long message, byte[] bytes) {
    return send(member, message, BulkSource.of(bytes));
  }

  /** Sends {@code bytes} (at most one bulk chunk) to {@code member}; as above. */
  CompletableFuture<Void> send(int member, long message, BulkSource bytes) {
    return bulk.send(members.get(member).node(), tag, message, bytes).toCompletableFuture();
  }

  /** The message {@code member} sends under {@code message}, when it arrives. */
  CompletableFuture<byte[]> take(int member, long message) {
    return bulk.mailbox().take(key(member, message));
  }

  /** Forgets a message taken, or never to be taken. */
  void cancel(int member, long message) {
    bulk.mailbox().cancel(key(member, message));
  }

  private Inbox.Key key(int member, long message) {
    return new Inbox.Key(members.get(member).node(), tag, message);
  }
}
