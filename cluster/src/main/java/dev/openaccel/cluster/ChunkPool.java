package dev.openaccel.cluster;

import java.util.concurrent.ArrayBlockingQueue;
import org.apache.pekko.actor.AbstractExtensionId;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.actor.Extension;
import org.apache.pekko.actor.typed.javadsl.Adapter;

/**
 * Reusable arrays of one chunk ({@link NodeCopy#CHUNK} bytes) for the bulk lane, one pool per actor
 * system, so that a transfer does not allocate a fresh 384 KiB array per chunk on each side
 * (young-generation garbage that the collector copies while the chunk waits). Internal.
 *
 * <p>Ownership passes with the array: whoever took it from the pool owns it until it gives it back,
 * hands it on, or drops it. The receiving side: {@link BulkSerializer} takes one per incoming
 * chunk, the {@link Inbox} holds it until a stream's copy-in has written it into the destination
 * buffer, and the copy-in gives it back. The sending side: a {@link BufferSource} reads device
 * buffers into pooled arrays for its {@link BulkSender}, and the serializer gives each back once it
 * has written it into Artery's buffer. An array that leaves this path (a read whose bytes go to the
 * caller, a message Artery dropped) is simply never given back: the pool then allocates a new one.
 * Arrays of any other length are never pooled.
 *
 * <p>Owns: the free arrays, at most the bulk window's worth ({@code
 * openaccel.cluster.bulk.window}), so an idle node keeps at most that much. Thread-safe (a bounded
 * concurrent queue).
 */
final class ChunkPool implements Extension {
  private final ArrayBlockingQueue<byte[]> free;

  ChunkPool(int capacity) {
    this.free = new ArrayBlockingQueue<>(Math.max(1, capacity));
  }

  /** The pool of {@code system}. */
  static ChunkPool of(org.apache.pekko.actor.typed.ActorSystem<?> system) {
    return Id.INSTANCE.apply(Adapter.toClassic(system));
  }

  static ChunkPool of(ActorSystem system) {
    return Id.INSTANCE.apply(system);
  }

  /** An array of {@code length} bytes: a pooled one for a whole chunk, else a new one. */
  byte[] take(int length) {
    if (length == NodeCopy.CHUNK) {
      byte[] pooled = free.poll();
      if (pooled != null) {
        return pooled;
      }
    }
    return new byte[length];
  }

  /** Gives back an array the caller owns and no longer reads or writes; others are ignored. */
  void give(byte[] array) {
    if (array.length == NodeCopy.CHUNK) {
      free.offer(array);
    }
  }

  /** Arrays waiting to be taken. */
  int idle() {
    return free.size();
  }

  /** Pekko's extension id. */
  static final class Id extends AbstractExtensionId<ChunkPool> {
    static final Id INSTANCE = new Id();

    @Override
    public ChunkPool createExtension(ExtendedActorSystem system) {
      long window = system.settings().config().getBytes("openaccel.cluster.bulk.window");
      return new ChunkPool((int) Math.min(4096, NodeCopy.chunksIn(window)));
    }
  }
}
