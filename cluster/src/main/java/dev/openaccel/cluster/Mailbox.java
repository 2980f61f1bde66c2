package dev.openaccel.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Where the messages of the collectives meet the operations that take them: bulk-lane transfers
 * whose id is a group's tag with the sending and receiving ranks, and copies handed over in memory
 * between members of one node, under the same keys ({@link GroupChannel}). A message may arrive
 * long before its operation starts (a member whose stream is busy falls behind its peers), so
 * unlike the {@link Inbox} nothing here expires: a message waits until it is taken, the member it
 * is for is destroyed (or, once no member of its group is open on this node, any member), or its
 * node leaves. A message under a key that holds one not yet taken replaces it: a join sent again by
 * a member that retries a creation supersedes the one its failed creation left. Internal.
 *
 * <p>Owns: the slots. Thread-safe: a slot changes only inside the map's atomic {@code compute} for
 * its key, and no future is completed while one of its dependents could run inside that compute.
 */
final class Mailbox {
  private static final class Slot {
    final CompletableFuture<byte[]> bytes = new CompletableFuture<>();
    boolean taken;
  }

  private final Map<Inbox.Key, Slot> slots = new ConcurrentHashMap<>();
  private final Membership members;

  Mailbox(Membership members) {
    this.members = members;
  }

  /** Whether {@code transferId} is a collective's message, not a transfer of the {@link Inbox}. */
  static boolean carries(long transferId) {
    return transferId >= GroupChannel.TAG_BASE;
  }

  /** A message has arrived. */
  void arrived(Inbox.Key key, byte[] bytes) {
    AtomicReference<Slot> waiting = new AtomicReference<>();
    slots.compute(
        key,
        (k, slot) -> {
          if (slot != null && slot.taken) {
            waiting.set(slot); // completed below, outside the compute
            return null;
          }
          Slot now = slot == null || slot.bytes.isDone() ? new Slot() : slot; // newest wins
          now.bytes.complete(bytes); // nobody depends on it yet
          return now;
        });
    if (waiting.get() != null) {
      waiting.get().bytes.complete(bytes);
    }
  }

  /**
   * The message under {@code key}, when it arrives; fails at once if its node is not a member, and
   * when the node leaves. Each key is taken once.
   */
  CompletableFuture<byte[]> take(Inbox.Key key) {
    AtomicReference<CompletableFuture<byte[]>> found = new AtomicReference<>();
    slots.compute(
        key,
        (k, slot) -> {
          Slot now = slot == null ? new Slot() : slot;
          now.taken = true;
          found.set(now.bytes);
          return now.bytes.isDone() ? null : now;
        });
    if (!members.admits(key.node())) {
      cancel(key);
      found
          .get()
          .completeExceptionally(
              Failures.nodeLeft(key.node(), "it is not a member of the cluster"));
    }
    return found.get();
  }

  /** Forgets {@code key}, whether or not its message came: its operation has ended. */
  void cancel(Inbox.Key key) {
    slots.remove(key);
  }

  /** Fails what is taken from {@code node}, which has left, and drops what it sent. */
  void nodeLeft(String node, String why) {
    List<Slot> gone = new ArrayList<>();
    for (Inbox.Key key : slots.keySet()) {
      if (key.node().equals(node)) {
        Slot slot = slots.remove(key);
        if (slot != null) {
          gone.add(slot);
        }
      }
    }
    gone.forEach(slot -> slot.bytes.completeExceptionally(Failures.nodeLeft(node, why)));
  }

  /**
   * Drops the messages for {@code member} that nobody took: that member of a group was destroyed
   * (another member of the group on this node may still run).
   */
  void purge(GroupChannel member) {
    slots.entrySet().removeIf(e -> member.isFor(e.getKey()) && !e.getValue().taken);
  }

  /** Drops every message of the group tagged {@code tag} that nobody took, whoever it is for. */
  void purge(long tag) {
    slots
        .entrySet()
        .removeIf(e -> GroupChannel.tagOfId(e.getKey().transferId()) == tag && !e.getValue().taken);
  }

  /** The messages and takes held for the group tagged {@code tag}, for tests. */
  int size(long tag) {
    return (int)
        slots.keySet().stream()
            .filter(key -> GroupChannel.tagOfId(key.transferId()) == tag)
            .count();
  }
}
