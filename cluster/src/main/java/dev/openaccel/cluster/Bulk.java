package dev.openaccel.cluster;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.Props;

/**
 * This node's end of the bulk lanes: one {@link BulkSender} per node it sends bytes to, the {@link
 * Inbox} for bytes it receives (the {@link Mailbox} for the collectives' messages), the {@link
 * ChunkPool} both use, and transfer ids. Internal.
 *
 * <p>Transfer ids: a node that sends bytes on its own initiative (a write, a pushed copy) numbers
 * the transfer with a positive id; a node that asks for bytes (a read, a pulled copy) with a
 * negative one. The receiver keys chunks by the sender's node, so the two never collide.
 *
 * <p>Owns: the sender table and the id counter (each sender owns its published peak read-ahead).
 * Thread-safe.
 */
final class Bulk {
  /**
   * The bulk actors (receiver and senders) run on a dispatcher of their own, so the gateway, the
   * links and the event relays on the default dispatcher never queue behind chunk handling.
   */
  private static final Props ON_OWN =
      DispatcherSelector.fromConfig("openaccel.cluster.bulk-dispatcher");

  private final ActorSystem<?> system;
  private final ClusterSettings settings;
  private final Membership members;
  private final ChunkPool pool;
  private final Inbox inbox;
  private final Mailbox mailbox;
  private final Map<String, ActorRef<BulkSender.Command>> senders = new ConcurrentHashMap<>();
  private final Map<String, AtomicLong> peaks = new ConcurrentHashMap<>();
  private final AtomicLong ids = new AtomicLong();
  private final AtomicLong names = new AtomicLong();

  Bulk(ActorSystem<?> system, ClusterSettings settings, Membership members) {
    this.system = system;
    this.settings = settings;
    this.members = members;
    this.pool = ChunkPool.of(system);
    this.inbox = new Inbox(settings.bulkTimeout(), pool);
    this.mailbox = new Mailbox(members);
    system.systemActorOf(
        BulkReceiver.create(inbox, mailbox, members, settings.bulkTimeout()),
        BulkReceiver.NAME,
        ON_OWN);
  }

  Inbox inbox() {
    return inbox;
  }

  /** Where the messages of the collectives arrive. */
  Mailbox mailbox() {
    return mailbox;
  }

  /** A new id for a transfer this node starts by sending. */
  long pushId() {
    return ids.incrementAndGet();
  }

  /** A new id for a transfer this node starts by asking for bytes. */
  long pullId() {
    return -ids.incrementAndGet();
  }

  /**
   * Queues {@code source} for {@code node}, as transfer {@code transferId} whose bytes go to
   * offsets from {@code offset}. This is the one way bytes leave this node: writes, reads and both
   * kinds of copy. The stage completes once the last chunk was handed to Artery, exceptionally if
   * the source could not be read (the receiver is told, and fails the chunks not sent) or the node
   * left.
   */
  CompletionStage<Void> send(String node, long transferId, long offset, BulkSource source) {
    CompletableFuture<Void> sent = new CompletableFuture<>();
    if (!members.admits(node)) {
      sent.completeExceptionally(
          Failures.nodeLeft(node, "it is not a member of the cluster; no bytes are sent to it"));
      return sent; // and no sender is started for it
    }
    ActorRef<BulkSender.Command> sender = senders.computeIfAbsent(node, this::spawnSender);
    sender.tell(new BulkSender.Send(transferId, offset, source, sent));
    if (!members.admits(node)) {
      // It left meanwhile: its sender may have stopped before this transfer reached it.
      sent.completeExceptionally(Failures.nodeLeft(node, "it left while bytes were sent to it"));
      if (senders.remove(node, sender)) {
        sender.tell(new BulkSender.Stop("it left the cluster"));
      }
    }
    return sent;
  }

  /** Whether a sender to {@code node} is running; for tests. */
  boolean sendsTo(String node) {
    return senders.containsKey(node);
  }

  /**
   * The most bytes of sources the sender to {@code node} has had read and not yet sent at once (its
   * read-ahead); 0 if it never sent. For tests and diagnostics.
   */
  long peakReadAhead(String node) {
    AtomicLong peak = peaks.get(node);
    return peak == null ? 0 : peak.get();
  }

  ChunkPool pool() {
    return pool;
  }

  /** {@code node} has left: its queued bytes are dropped and bytes expected from it fail. */
  void nodeLeft(String node, String why) {
    ActorRef<BulkSender.Command> sender = senders.remove(node);
    if (sender != null) {
      sender.tell(new BulkSender.Stop(why));
    }
    inbox.nodeLeft(node, why);
    mailbox.nodeLeft(node, why);
  }

  private ActorRef<BulkSender.Command> spawnSender(String node) {
    ActorRef<BulkMessage> receiver =
        ActorRefResolver.get(system).resolveActorRef(node + "/system/" + BulkReceiver.NAME);
    AtomicLong peak = peaks.computeIfAbsent(node, n -> new AtomicLong());
    return system.systemActorOf(
        BulkSender.create(node, receiver, settings.window(), settings.bulkTimeout(), peak),
        "openaccel-bulk-to-" + names.incrementAndGet(),
        ON_OWN);
  }
}
