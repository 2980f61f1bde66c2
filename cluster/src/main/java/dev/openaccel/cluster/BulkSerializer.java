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
      byte[] ref = resolver.toSerializationFormat(chunk.replyTo()).getBytes(StandardCharsets.UTF_8);
      buffer.putLong(chunk.transferId()).putLong(chunk.offset()).putInt(ref.length).put(ref);
      buffer.putInt(chunk.length()).put(chunk.data(), chunk.start(), chunk.length());
      if (chunk.pooled()) {
        ChunkPool.of(system).give(chunk.data());
      }
    } else if (o instanceof BulkProtocol.Credit credit) {
      buffer.putLong(credit.transferId()).putLong(credit.offset()).putInt(credit.length());
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
    long transferId = buffer.getLong();
    long offset = buffer.getLong();
    switch (manifest) {
      case CHUNK -> {
        byte[] ref = new byte[buffer.getInt()];
        buffer.get(ref);
        byte[] data = ChunkPool.of(system).take(buffer.getInt());
        buffer.get(data);
        ActorRef<BulkProtocol.Credit> replyTo =
            resolver.resolveActorRef(new String(ref, StandardCharsets.UTF_8));
        return new BulkProtocol.Chunk(transferId, offset, data, 0, data.length, replyTo);
      }
      case CREDIT -> {
        return new BulkProtocol.Credit(transferId, offset, buffer.getInt());
      }
      default -> throw new NotSerializableException("unknown bulk manifest '" + manifest + "'");
    }
  }

  private int size(Object o) {
    if (o instanceof BulkProtocol.Chunk chunk) {
      return 24 + chunk.length() + 4 * resolver.toSerializationFormat(chunk.replyTo()).length();
    }
    return 20;
  }
}
