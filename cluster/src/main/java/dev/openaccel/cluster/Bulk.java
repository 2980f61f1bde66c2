package dev.openaccel.cluster;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.Props;

/**
 * This node's end of the bulk lanes: one {@link BulkSender} per node it sends bytes to, the {@link
 * Inbox} for bytes it receives, the {@link ChunkPool} both use, and transfer ids. Internal.
 *
 * <p>Transfer ids: a node that sends bytes on its own initiative (a write, a pushed copy) numbers
 * the transfer with a positive id; a node that asks for bytes (a read, a pulled copy) with a
 * negative one. The receiver keys chunks by the sender's node, so the two never collide.
 *
 * <p>Owns: the sender table and the id counter. Thread-safe.
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
  private final ChunkPool pool;
  private final Inbox inbox;
  private final Map<String, ActorRef<BulkSender.Command>> senders = new ConcurrentHashMap<>();
  private final AtomicLong ids = new AtomicLong();
  private final AtomicLong names = new AtomicLong();

  Bulk(ActorSystem<?> system, ClusterSettings settings, Membership members) {
    this.system = system;
    this.settings = settings;
    this.pool = ChunkPool.of(system);
    this.inbox = new Inbox(settings.bulkTimeout(), pool);
    system.systemActorOf(
        BulkReceiver.create(inbox, members, settings.bulkTimeout()), BulkReceiver.NAME, ON_OWN);
  }

  Inbox inbox() {
    return inbox;
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
   * Queues {@code data} for {@code node}, as transfer {@code transferId} from {@code offset}; a
   * {@code pooled} array (one chunk of the {@link ChunkPool}) is handed over and goes back to the
   * pool once sent.
   */
  void send(String node, long transferId, long offset, byte[] data, boolean pooled) {
    if (pooled && data.length != NodeCopy.CHUNK) {
      throw new IllegalArgumentException("a pooled array is one chunk, not " + data.length);
    }
    senders
        .computeIfAbsent(node, this::spawnSender)
        .tell(new BulkSender.Send(transferId, offset, data, pooled));
  }

  ChunkPool pool() {
    return pool;
  }

  /** {@code node} has left: its queued bytes are dropped and bytes expected from it fail. */
  void nodeLeft(String node, String why) {
    ActorRef<BulkSender.Command> sender = senders.remove(node);
    if (sender != null) {
      sender.tell(BulkSender.Stop.INSTANCE);
    }
    inbox.nodeLeft(node, why);
  }

  private ActorRef<BulkSender.Command> spawnSender(String node) {
    ActorRef<BulkProtocol.Chunk> receiver =
        ActorRefResolver.get(system).resolveActorRef(node + "/system/" + BulkReceiver.NAME);
    return system.systemActorOf(
        BulkSender.create(node, receiver, settings.window(), settings.bulkTimeout()),
        "openaccel-bulk-to-" + names.incrementAndGet(),
        ON_OWN);
  }
}
