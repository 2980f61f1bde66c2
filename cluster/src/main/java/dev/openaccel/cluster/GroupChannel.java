package dev.openaccel.cluster;

import dev.openaccel.runtime.Device;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One member's end of a process group's messages, addressed by rank. A message to a member of
 * another node is a bulk-lane transfer whose id is the group's tag with the sending and the
 * receiving rank, and whose offset names the message, so a message is at most one bulk chunk and
 * travels in the sender's turn with every other transfer to that node (credits, window, loss
 * detection on node removal). A message to a member of this node never touches Artery: a copy of
 * its bytes goes straight into this node's {@link Mailbox} under the key the bulk lane would have
 * used, so the algorithms take it as any other, and the receiver owns its array as it owns one that
 * came over Artery. Internal.
 *
 * <p>A transfer id packs {@link #TAG_BASE}, 46 bits of the hash of the group's name, the sending
 * rank (8 bits) and the receiving rank (8 bits). A message's name packs {@code kind} (3 bits), the
 * operation's sequence number (29 bits), the step of the algorithm (10 bits) and the piece of the
 * data (22 bits); a join's, which precedes any agreement on ranks, packs the {@link #joinCode} of
 * the sending and of the receiving device instead (30 bits each). Owns nothing mutable.
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

  private static final int RANK_BITS = 8;
  private static final long RANKS = (1L << 2 * RANK_BITS) - 1;
  private static final long DEVICE_CODE = (1L << 30) - 1;
  private static final int INDEX_BITS = 15;
  private static final long INDEX_MASK = (1L << INDEX_BITS) - 1;

  private final String group;
  private final long tag;
  private final List<RemoteDevice> members;
  private final int rank;
  private final NodeLayout layout;
  private final Bulk bulk;

  GroupChannel(String group, List<RemoteDevice> members, int rank, Bulk bulk) {
    this.group = group;
    this.tag = tagOf(group);
    this.members = List.copyOf(members);
    this.rank = rank;
    this.layout = NodeLayout.of(this.members);
    this.bulk = bulk;
  }

  /**
   * The tag of the group named {@code group}: TAG_BASE and 46 bits of an FNV-1a hash of its name
   * above the 16 bits of the ranks.
   */
  static long tagOf(String group) {
    return TAG_BASE | ((hash(group) << 2 * RANK_BITS) & (TAG_BASE - 1) & ~RANKS);
  }

  private static long hash(String text) {
    long hash = 0xcbf29ce484222325L;
    for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
      hash = (hash ^ (b & 0xff)) * 0x100000001b3L;
    }
    return hash;
  }

  /** The tag of the group a message's transfer id {@code id} belongs to. */
  static long tagOfId(long id) {
    return id & ~RANKS;
  }

  /** The rank a message's transfer id {@code id} is addressed to. */
  private static int receiverOf(long id) {
    return (int) (id & (MAX_MEMBERS - 1));
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

  /** Which members share a node. */
  NodeLayout layout() {
    return layout;
  }

  /** {@code member}, named for messages: {@code rank 2 (node/openreg:0)}. */
  String describe(int member) {
    return "rank " + member + " (" + members.get(member) + ")";
  }

  /**
   * Sends {@code bytes} (at most one bulk chunk, never written again: Artery may encode them after
   * the send completed) to {@code member}; completes once handed to Artery, or at once for a member
   * of this node, whose mailbox then holds a copy.
   */
  CompletableFuture<Void> send(int member, long message, byte[] bytes) {
    return send(member, message, BulkSource.of(bytes));
  }

  /**
   * Sends {@code bytes} (at most one bulk chunk) to {@code member}; as above. For a member of this
   * node the bytes are read at once into an array of their own, and pooled slices go back to the
   * {@link ChunkPool}.
   */
  CompletableFuture<Void> send(int member, long message, BulkSource bytes) {
    Inbox.Key key = key(rank, member, message);
    if (layout.sameNode(rank, member)) {
      bulk.mailbox().arrived(key, readAll(bytes));
      return CompletableFuture.completedFuture(null);
    }
    String node = members.get(member).node();
    return bulk.send(node, key.transferId(), key.offset(), bytes).toCompletableFuture();
  }

  /** The bytes of {@code source}, whose reads complete at once, in a new array. */
  private byte[] readAll(BulkSource source) {
    byte[] all = new byte[(int) source.length()];
    int at = 0;
    for (BulkSource.Slice slice : source.read(0, all.length).toCompletableFuture().join()) {
      System.arraycopy(slice.data(), slice.start(), all, at, slice.length());
      at += slice.length();
      if (slice.pooled()) {
        bulk.pool().give(slice.data());
      }
    }
    return all;
  }

  /** The message {@code member} sends this member under {@code message}, when it arrives. */
  CompletableFuture<byte[]> take(int member, long message) {
    return bulk.mailbox().take(key(member, rank, message));
  }

  /** Forgets a message taken, or never to be taken. */
  void cancel(int member, long message) {
    bulk.mailbox().cancel(key(member, rank, message));
  }

  /** Whether {@code key} is a message of this group to this member. */
  boolean isFor(Inbox.Key key) {
    long id = key.transferId();
    if (tagOfId(id) != tag) {
      return false;
    }
    return key.offset() >>> 61 == JOIN
        ? (key.offset() & DEVICE_CODE) == code(rank)
        : receiverOf(id) == rank;
  }

  /**
   * The key of the message {@code from} sends {@code to} under {@code message}. A join is addressed
   * by the two devices instead of their ranks (the rank bits are 0), so that members whose member
   * lists differ still meet and can name both lists.
   */
  private Inbox.Key key(int from, int to, long message) {
    String node = members.get(from).node();
    if (message >>> 61 == JOIN) {
      return new Inbox.Key(node, tag, message | code(from) << 30 | code(to));
    }
    return new Inbox.Key(node, tag | ((long) from << RANK_BITS) | to, message);
  }

  private long code(int member) {
    return joinCode(members.get(member).device());
  }

  /**
   * How a join names {@code device} on its node (30 bits): the device's index (15 bits, as an
   * engine numbers at most 2^15 devices) under 15 bits of an FNV-1a hash of its type's name. Two
   * devices of one type never share a code; devices of two types whose names hash alike could, and
   * {@link Collectives} refuses such a member list.
   */
  static long joinCode(Device device) {
    return (hash(device.type().name()) << INDEX_BITS | (device.index() & INDEX_MASK)) & DEVICE_CODE;
  }
}
