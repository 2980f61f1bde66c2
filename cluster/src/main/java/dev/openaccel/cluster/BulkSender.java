package dev.openaccel.cluster;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.pekko.actor.NoSerializationVerificationNeeded;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * Sends bulk data to one other node's {@link BulkReceiver}, credit-based: at most the configured
 * window of bytes is in flight, unacknowledged; the transfers wait here, in the order they were
 * handed over, so a producer that outruns the network fills this queue instead of Artery's (whose
 * overflow drops messages). Internal.
 *
 * <p>Sources are read as room appears: at most the read-ahead (half the window, at least one {@link
 * #READ}) of bytes read and not yet sent, over all transfers, so the heap a transfer takes here
 * does not grow with its size. The transfers take turns: each chunk sent puts its transfer at the
 * back of the queue, and reads go to the transfers in queue order, one read per transfer at a time.
 * So a small transfer behind large ones leaves soon after its turn to be read comes, behind at most
 * the read-ahead the others hold, not after all of their bytes.
 *
 * <p>The bulk lane is Artery's large-message lane (the receiver's path is a large-message
 * destination): its own connection and queue, so bulk data never delays control messages or events.
 * The chunks are numbered; the receiver acknowledges the ones marked {@code ack} (the last of each
 * burst, and at least every {@link #ACK_EVERY}), each acknowledgement covering all before it. A
 * chunk not acknowledged within the bulk timeout gives its credit back (the receiver fails the
 * transfer as lost), so a lost message never shrinks the window for good.
 *
 * <p>Owns: the transfers ({@link Outgoing}), their read chunks, the chunks in flight, the credit
 * and the published peak of bytes read ahead.
 */
final class BulkSender extends AbstractBehavior<BulkSender.Command> {
  /** Chunks sent between two acknowledgements, at most: 3 MiB. */
  static final int ACK_EVERY = 8;

  /** Bytes one read of a source asks for: 3 MiB. */
  static final int READ = NodeCopy.BATCH * NodeCopy.CHUNK;

  sealed interface Command extends NoSerializationVerificationNeeded {}

  /**
   * Sends {@code source} as transfer {@code transferId}, its bytes at offsets from {@code offset};
   * {@code sent} completes once the last chunk was handed to Artery, exceptionally if the source
   * failed or the node left.
   */
  record Send(long transferId, long offset, BulkSource source, CompletableFuture<Void> sent)
      implements Command {}

  /** The node has left: fail what is queued and stop. */
  record Stop(String why) implements Command {}

  private record Credited(BulkProtocol.Credit credit) implements Command {}

  private record Read(
      Outgoing transfer, int length, List<BulkSource.Slice> slices, Throwable failure)
      implements Command {}

  private enum Tick implements Command {
    INSTANCE
  }

  private record InFlight(long seq, long sentAt, int length) {}

  static Behavior<Command> create(
      String node,
      ActorRef<BulkMessage> receiver,
      long window,
      Duration timeout,
      AtomicLong peakReadAhead) {
    return Behaviors.setup(
        context ->
            Behaviors.withTimers(
                timers -> {
                  timers.startTimerWithFixedDelay(Tick.INSTANCE, timeout.dividedBy(4));
                  return new BulkSender(context, node, receiver, window, timeout, peakReadAhead);
                }));
  }

  private final String node;
  private final ActorRef<BulkMessage> receiver;
  private final ActorRef<BulkProtocol.Credit> credits;
  private final long window;
  private final long readAhead;
  private final Duration timeout;
  private final ArrayDeque<Outgoing> queue = new ArrayDeque<>();
  private final ArrayDeque<InFlight> inFlight = new ArrayDeque<>();
  private final AtomicLong peakReadAhead;
  private long bytesInFlight;
  private long buffered; // bytes read or being read, not yet sent
  private long seq;
  private int sinceAck;

  private BulkSender(
      ActorContext<Command> context,
      String node,
      ActorRef<BulkMessage> receiver,
      long window,
      Duration timeout,
      AtomicLong peakReadAhead) {
    super(context);
    this.node = node;
    this.receiver = receiver;
    this.window = window;
    this.readAhead = Math.max(READ, window / 2);
    this.timeout = timeout;
    this.peakReadAhead = peakReadAhead;
    this.credits = context.messageAdapter(BulkProtocol.Credit.class, Credited::new);
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Send.class, this::onSend)
        .onMessage(Read.class, this::onRead)
        .onMessage(Credited.class, this::onCredited)
        .onMessageEquals(Tick.INSTANCE, this::onTick)
        .onMessage(Stop.class, this::onStop)
        .build();
  }

  private Behavior<Command> onSend(Send send) {
    queue.add(new Outgoing(send));
    pump();
    return this;
  }

  private Behavior<Command> onRead(Read read) {
    Outgoing transfer = read.transfer();
    buffered -= read.length();
    transfer.reading = false;
    if (!queue.contains(transfer)) {
      read.slices().forEach(this::drop); // the transfer failed meanwhile
    } else if (read.failure() != null) {
      abort(transfer, Failures.unwrap(read.failure()));
    } else {
      transfer.ready.addAll(read.slices());
      buffered += read.length();
    }
    pump();
    return this;
  }

  private Behavior<Command> onCredited(Credited credited) {
    while (!inFlight.isEmpty() && inFlight.peek().seq() <= credited.credit().seq()) {
      bytesInFlight -= inFlight.poll().length();
    }
    pump();
    return this;
  }

  private Behavior<Command> onTick() {
    long now = System.nanoTime();
    while (!inFlight.isEmpty() && now - inFlight.peek().sentAt() > timeout.toNanos()) {
      InFlight lost = inFlight.poll();
      getContext()
          .getLog()
          .error(
              "node {} did not acknowledge chunk {} within {}; its receiver fails that transfer",
              node,
              lost.seq(),
              timeout);
      bytesInFlight -= lost.length();
    }
    pump();
    return this;
  }

  private Behavior<Command> onStop(Stop stop) {
    for (Outgoing transfer : queue) {
      transfer.ready.forEach(this::drop);
      transfer.send.sent().completeExceptionally(Failures.nodeLeft(node, stop.why()));
    }
    return Behaviors.stopped();
  }

  /**
   * Starts the reads there is room for, then sends what credit allows as one burst, whose last
   * chunk asks for credit.
   */
  private void pump() {
    startReads();
    List<Outgoing> finished = new ArrayList<>();
    BulkProtocol.Chunk pending = null;
    Outgoing from = firstReady();
    while (from != null && bytesInFlight < window) {
      if (pending != null) {
        tell(pending, false);
      }
      pending = next(from, ++seq);
      queue.remove(from);
      if (from.sentChunks == from.chunks) {
        finished.add(from);
      } else {
        queue.addLast(from); // its turn is over: the next transfer with a chunk read goes
      }
      from = firstReady();
    }
    if (pending != null) {
      tell(pending, true);
      startReads();
    }
    finished.forEach(transfer -> transfer.send.sent().complete(null));
  }

  private void tell(BulkProtocol.Chunk chunk, boolean endOfBurst) {
    boolean ack = ++sinceAck >= ACK_EVERY || endOfBurst;
    if (ack) {
      sinceAck = 0;
    }
    receiver.tell(ack ? chunk.askingForCredit() : chunk);
  }

  /** Takes the next read chunk of {@code from}, counting it as sent. */
  private BulkProtocol.Chunk next(Outgoing from, long number) {
    BulkSource.Slice slice = from.ready.poll();
    long offset = from.send.offset() + (long) from.sentChunks * NodeCopy.CHUNK;
    from.sentChunks++;
    buffered -= slice.length();
    bytesInFlight += slice.length();
    inFlight.add(new InFlight(number, System.nanoTime(), slice.length()));
    return new BulkProtocol.Chunk(
        from.send.transferId(),
        offset,
        slice.data(),
        slice.start(),
        slice.length(),
        credits,
        slice.pooled(),
        number,
        false);
  }

  private Outgoing firstReady() {
    for (Outgoing transfer : queue) {
      if (!transfer.ready.isEmpty()) {
        return transfer;
      }
    }
    return null;
  }

  /** Asks the transfers in queue order for their next read, while the read-ahead has room. */
  private void startReads() {
    for (Outgoing transfer : queue) {
      if (transfer.reading || transfer.readChunks == transfer.chunks) {
        continue;
      }
      int count = Math.min(NodeCopy.BATCH, transfer.chunks - transfer.readChunks);
      long from = (long) transfer.readChunks * NodeCopy.CHUNK;
      int length = (int) Math.min((long) count * NodeCopy.CHUNK, transfer.length - from);
      if (buffered > 0 && buffered + length > readAhead) {
        return;
      }
      transfer.reading = true;
      transfer.readChunks += count;
      buffered += length;
      peakReadAhead.set(Math.max(peakReadAhead.get(), buffered));
      getContext()
          .pipeToSelf(
              transfer.send.source().read(from, length),
              (slices, failure) -> new Read(transfer, length, slices, failure));
    }
  }

  /** The source failed: the receiver fails the chunks not sent, and so does the sender's caller. */
  private void abort(Outgoing transfer, Throwable failure) {
    queue.remove(transfer);
    transfer.ready.forEach(
        slice -> {
          buffered -= slice.length();
          drop(slice);
        });
    transfer.ready.clear();
    String reason = String.valueOf(failure.getMessage());
    receiver.tell(
        new BulkProtocol.Abort(
            transfer.send.transferId(),
            transfer.send.offset() + (long) transfer.sentChunks * NodeCopy.CHUNK,
            transfer.chunks - transfer.sentChunks,
            reason,
            credits));
    transfer.send.sent().completeExceptionally(failure);
  }

  private void drop(BulkSource.Slice slice) {
    if (slice.pooled()) {
      ChunkPool.of(getContext().getSystem()).give(slice.data());
    }
  }
}
