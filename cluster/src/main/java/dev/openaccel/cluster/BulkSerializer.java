package dev.openaccel.cluster;

import java.io.NotSerializableException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.serialization.ByteBufferSerializer;
import org.apache.pekko.serialization.SerializerWithStringManifest;

/**
 * Writes {@link BulkMessage}s as raw bytes: a chunk is its ids, its reply address and its slice,
 * written straight into Artery's buffer without an intermediate array. Chunks are read into arrays
 * of the {@link ChunkPool}; a pooled chunk's array goes back to the pool once written. Internal;
 * bound in {@code reference.conf}.
 */
public final class BulkSerializer extends SerializerWithStringManifest
    implements ByteBufferSerializer {
  private static final String CHUNK = "C";
  private static final String CREDIT = "K";
  private static final String ABORT = "A";

  private final ActorRefResolver resolver;
  private final ExtendedActorSystem system;

  /** Pekko's constructor for serializers. */
  public BulkSerializer(ExtendedActorSystem system) {
    this.resolver = ActorRefResolver.get(Adapter.toTyped(system));
    this.system = system;
  }

  @Override
  public int identifier() {
    return 0x0AACCE11;
  }

  @Override
  public String manifest(Object o) {
    if (o instanceof BulkProtocol.Chunk) {
      return CHUNK;
    }
    if (o instanceof BulkProtocol.Credit) {
      return CREDIT;
    }
    if (o instanceof BulkProtocol.Abort) {
      return ABORT;
    }
    throw new IllegalArgumentException("not a bulk message: " + o.getClass().getName());
  }

  @Override
  public byte[] toBinary(Object o) {
    ByteBuffer buffer = ByteBuffer.allocate(size(o));
    toBinary(o, buffer);
    return buffer.array();
  }

  @Override
  public void toBinary(Object o, ByteBuffer buffer) {
    if (o instanceof BulkProtocol.Chunk chunk) {
      buffer.putLong(chunk.transferId()).putLong(chunk.offset()).putLong(chunk.seq());
      buffer.put((byte) (chunk.ack() ? 1 : 0));
      putString(buffer, resolver.toSerializationFormat(chunk.replyTo()));
      buffer.putInt(chunk.length()).put(chunk.data(), chunk.start(), chunk.length());
      if (chunk.pooled()) {
        ChunkPool.of(system).give(chunk.data());
      }
    } else if (o instanceof BulkProtocol.Credit credit) {
      buffer.putLong(credit.seq());
    } else if (o instanceof BulkProtocol.Abort abort) {
      buffer.putLong(abort.transferId()).putLong(abort.offset()).putInt(abort.chunks());
      putString(buffer, resolver.toSerializationFormat(abort.replyTo()));
      putString(buffer, abort.reason());
    } else {
      throw new IllegalArgumentException("not a bulk message: " + o.getClass().getName());
    }
  }

  @Override
  public Object fromBinary(byte[] bytes, String manifest) throws NotSerializableException {
    return fromBinary(ByteBuffer.wrap(bytes), manifest);
  }

  @Override
  public Object fromBinary(ByteBuffer buffer, String manifest) throws NotSerializableException {
    switch (manifest) {
      case CHUNK -> {
        long transferId = buffer.getLong();
        long offset = buffer.getLong();
        long seq = buffer.getLong();
        boolean ack = buffer.get() != 0;
        ActorRef<BulkProtocol.Credit> replyTo = resolver.resolveActorRef(getString(buffer));
        byte[] data = ChunkPool.of(system).take(buffer.getInt());
        buffer.get(data);
        return new BulkProtocol.Chunk(
            transferId, offset, data, 0, data.length, replyTo, false, seq, ack);
      }
      case CREDIT -> {
        return new BulkProtocol.Credit(buffer.getLong());
      }
      case ABORT -> {
        long transferId = buffer.getLong();
        long offset = buffer.getLong();
        int chunks = buffer.getInt();
        ActorRef<BulkProtocol.Credit> replyTo = resolver.resolveActorRef(getString(buffer));
        return new BulkProtocol.Abort(transferId, offset, chunks, getString(buffer), replyTo);
      }
      default -> throw new NotSerializableException("unknown bulk manifest '" + manifest + "'");
    }
  }

  private static void putString(ByteBuffer buffer, String value) {
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    buffer.putInt(bytes.length).put(bytes);
  }

  private static String getString(ByteBuffer buffer) {
    byte[] bytes = new byte[buffer.getInt()];
    buffer.get(bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  private int size(Object o) {
    if (o instanceof BulkProtocol.Chunk chunk) {
      return 33 + chunk.length() + 4 * resolver.toSerializationFormat(chunk.replyTo()).length();
    }
    if (o instanceof BulkProtocol.Abort abort) {
      return 28
          + 4
              * (resolver.toSerializationFormat(abort.replyTo()).length()
                  + abort.reason().length());
    }
    return 8;
  }
}
