package dev.openaccel.cluster;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import org.apache.pekko.actor.NoSerializationVerificationNeeded;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * Sends bulk data to one other node's {@link BulkReceiver}, credit-based: at most the configured
 * window of bytes is in flight, unacknowledged; the rest waits here, in the order it was handed
 * over, so a producer that outruns the network fills this queue instead of Artery's (whose overflow
 * drops messages). Internal.
 *
 * <p>The bulk lane is Artery's large-message lane (the receiver's path is a large-message
 * destination): its own connection and queue, so bulk data never delays control messages or events.
 * A chunk not acknowledged within the bulk timeout gives its credit back (the receiver fails the
 * transfer as lost), so a lost message never shrinks the window for good.
 *
 * <p>Owns: the queue, the chunks in flight and the credit.
 */
final class BulkSender extends AbstractBehavior<BulkSender.Command> {

  sealed interface Command extends NoSerializationVerificationNeeded {}

  /**
   * Sends {@code data} as transfer {@code transferId}, starting at {@code offset}; a {@code pooled}
   * array is one chunk of the {@link ChunkPool}, handed over with the message.
   */
  record Send(long transferId, long offset, byte[] data, boolean pooled) implements Command {}

  /** The node has left: drop what is queued and stop. */
  enum Stop implements Command {
    INSTANCE
  }

  private record Credited(BulkProtocol.Credit credit) implements Command {}

  private enum Tick implements Command {
    INSTANCE
  }

  private record InFlight(long sentAt, int length) {}

  private record Key(long transferId, long offset) {}

  static Behavior<Command> create(
      String node, ActorRef<BulkProtocol.Chunk> receiver, long window, Duration timeout) {
    return Behaviors.setup(
        context ->
            Behaviors.withTimers(
                timers -> {
                  timers.startTimerWithFixedDelay(Tick.INSTANCE, timeout.dividedBy(4));
                  return new BulkSender(context, node, receiver, window, timeout);
                }));
  }

  private final String node;
  private final ActorRef<BulkProtocol.Chunk> receiver;
  private final ActorRef<BulkProtocol.Credit> credits;
  private final long window;
  private final Duration timeout;
  private final ArrayDeque<Send> queue = new ArrayDeque<>();
  private final Map<Key, InFlight> inFlight = new HashMap<>();
  private long sentOfHead; // bytes of the queue's head already sent
  private long bytesInFlight;

  private BulkSender(
      ActorContext<Command> context,
      String node,
      ActorRef<BulkProtocol.Chunk> receiver,
      long window,
      Duration timeout) {
    super(context);
    this.node = node;
    this.receiver = receiver;
    this.window = window;
    this.timeout = timeout;
    this.credits = context.messageAdapter(BulkProtocol.Credit.class, Credited::new);
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Send.class, this::onSend)
        .onMessage(Credited.class, this::onCredited)
        .onMessageEquals(Tick.INSTANCE, this::onTick)
        .onMessageEquals(Stop.INSTANCE, Behaviors::stopped)
        .build();
  }

  private Behavior<Command> onSend(Send send) {
    queue.add(send);
    pump();
    return this;
  }

  private Behavior<Command> onCredited(Credited credited) {
    BulkProtocol.Credit credit = credited.credit();
    InFlight chunk = inFlight.remove(new Key(credit.transferId(), credit.offset()));
    if (chunk != null) {
      bytesInFlight -= chunk.length();
      pump();
    }
    return this;
  }

  private Behavior<Command> onTick() {
    long now = System.nanoTime();
    Iterator<Map.Entry<Key, InFlight>> entries = inFlight.entrySet().iterator();
    while (entries.hasNext()) {
      Map.Entry<Key, InFlight> entry = entries.next();
      if (now - entry.getValue().sentAt() > timeout.toNanos()) {
        getContext()
            .getLog()
            .error(
                "node {} did not acknowledge {} within {}; its receiver fails that transfer",
                node,
                entry.getKey(),
                timeout);
        bytesInFlight -= entry.getValue().length();
        entries.remove();
      }
    }
    pump();
    return this;
  }

  private void pump() {
    while (!queue.isEmpty() && bytesInFlight < window) {
      Send head = queue.peek();
      int start = (int) sentOfHead;
      int length = (int) Math.min(NodeCopy.CHUNK, head.data().length - sentOfHead);
      long offset = head.offset() + start;
      receiver.tell(
          new BulkProtocol.Chunk(
              head.transferId(), offset, head.data(), start, length, credits, head.pooled()));
      inFlight.put(new Key(head.transferId(), offset), new InFlight(System.nanoTime(), length));
      bytesInFlight += length;
      sentOfHead += length;
      if (sentOfHead >= head.data().length) {
        queue.poll();
        sentOfHead = 0;
      }
    }
  }
}
