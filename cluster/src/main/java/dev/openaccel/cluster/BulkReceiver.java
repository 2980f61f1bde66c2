package dev.openaccel.cluster;

import java.time.Duration;
import org.apache.pekko.actor.NoSerializationVerificationNeeded;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * Takes in the bulk data other nodes send this one (a system actor named {@link #NAME}, a
 * large-message destination in {@code reference.conf}), hands each chunk to the {@link Inbox} and
 * gives its sender the credit back. Chunks from nodes that are not members are dropped (their
 * arrays go back to the {@link ChunkPool}). Internal.
 *
 * <p>Owns nothing: the state is the inbox's.
 */
final class BulkReceiver {
  static final String NAME = "openaccel-bulk";

  private BulkReceiver() {}

  private enum Tick implements BulkMessage, NoSerializationVerificationNeeded {
    INSTANCE
  }

  static Behavior<BulkMessage> create(Inbox inbox, Membership members, Duration timeout) {
    return Behaviors.withTimers(
        timers -> {
          timers.startTimerWithFixedDelay(Tick.INSTANCE, timeout.dividedBy(4));
          return Behaviors.receive(BulkMessage.class)
              .onMessage(
                  BulkProtocol.Chunk.class,
                  chunk -> {
                    String from = chunk.replyTo().path().address().toString();
                    if (members.admits(from)) {
                      inbox.arrived(
                          new Inbox.Key(from, chunk.transferId(), chunk.offset()), chunk.bytes());
                    } else {
                      inbox.recycle(chunk.data());
                    }
                    chunk
                        .replyTo()
                        .tell(
                            new BulkProtocol.Credit(
                                chunk.transferId(), chunk.offset(), chunk.length()));
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
}
