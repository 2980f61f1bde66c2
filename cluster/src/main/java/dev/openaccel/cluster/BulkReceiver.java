package dev.openaccel.cluster;

import dev.openaccel.runtime.DeviceExecutionException;
import java.time.Duration;
import org.apache.pekko.actor.NoSerializationVerificationNeeded;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * Takes in the bulk data other nodes send this one (a system actor named {@link #NAME}, a
 * large-message destination in {@code reference.conf}), hands each chunk to the {@link Inbox} and
 * gives its sender the credit back when the chunk asks for it (a collective's message to the {@link
 * Mailbox}). Chunks from nodes that are not members are dropped (their arrays go back to the {@link
 * ChunkPool}). An {@link BulkProtocol.Abort} fails the chunks of its transfer that will not come.
 * Internal.
 *
 * <p>Owns nothing: the state is the inbox's.
 */
final class BulkReceiver {
  static final String NAME = "openaccel-bulk";

  private BulkReceiver() {}

  private enum Tick implements BulkMessage, NoSerializationVerificationNeeded {
    INSTANCE
  }

  static Behavior<BulkMessage> create(
      Inbox inbox, Mailbox mailbox, Membership members, Duration timeout) {
    return Behaviors.withTimers(
        timers -> {
          timers.startTimerWithFixedDelay(Tick.INSTANCE, timeout.dividedBy(4));
          return Behaviors.receive(BulkMessage.class)
              .onMessage(
                  BulkProtocol.Chunk.class,
                  chunk -> {
                    String from = chunk.replyTo().path().address().toString();
                    Inbox.Key key = new Inbox.Key(from, chunk.transferId(), chunk.offset());
                    if (members.admits(from) && Mailbox.carries(chunk.transferId())) {
                      mailbox.arrived(key, chunk.bytes());
                    } else if (members.admits(from)) {
                      inbox.arrived(key, chunk.bytes());
                    } else {
                      inbox.recycle(chunk.data());
                    }
                    if (chunk.ack()) {
                      chunk.replyTo().tell(new BulkProtocol.Credit(chunk.seq()));
                    }
                    return Behaviors.same();
                  })
              .onMessage(
                  BulkProtocol.Abort.class,
                  abort -> {
                    String from = abort.replyTo().path().address().toString();
                    if (members.admits(from)) {
                      fail(inbox, from, abort);
                    }
                    return Behaviors.same();
                  })
              .onMessageEquals(
                  Tick.INSTANCE,
                  () -> {
                    inbox.expire();
                    return Behaviors.same();
                  })
              .build();
        });
  }

  private static void fail(Inbox inbox, String from, BulkProtocol.Abort abort) {
    DeviceExecutionException failure =
        new DeviceExecutionException(
            "bulk transfer "
                + abort.transferId()
                + " from node "
                + from
                + " failed at offset "
                + abort.offset()
                + ": "
                + abort.reason());
    for (int i = 0; i < abort.chunks(); i++) {
      long offset = abort.offset() + (long) i * NodeCopy.CHUNK;
      inbox.fail(new Inbox.Key(from, abort.transferId(), offset), failure);
    }
  }
}
