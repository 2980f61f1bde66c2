package dev.openaccel.cluster;

import java.io.NotSerializableException;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.serialization.ByteBufferSerializer;
import org.apache.pekko.serialization.SerializerWithStringManifest;

/**
 * The bulk serializer for tests that lose a chunk on the wire: it refuses to write the next chunk
 * that {@link #dropNext} matches, and Artery drops a message it cannot serialize (logging the
 * error), as it drops one whose queue is full. Everything else is {@link BulkSerializer}'s.
 */
public final class DroppingBulkSerializer extends SerializerWithStringManifest
    implements ByteBufferSerializer {
  private static final AtomicReference<Predicate<BulkProtocol.Chunk>> drop =
      new AtomicReference<>();

  private final BulkSerializer bulk;

  /** Pekko's constructor for serializers. */
  public DroppingBulkSerializer(ExtendedActorSystem system) {
    this.bulk = new BulkSerializer(system);
  }

  /** The next chunk written, by any node of this JVM, that matches is lost. */
  static void dropNext(Predicate<BulkProtocol.Chunk> which) {
    drop.set(which);
  }

  @Override
  public int identifier() {
    return bulk.identifier();
  }

  @Override
  public String manifest(Object o) {
    return bulk.manifest(o);
  }

  @Override
  public byte[] toBinary(Object o) {
    refuseIfDropped(o);
    return bulk.toBinary(o);
  }

  @Override
  public void toBinary(Object o, ByteBuffer buffer) {
    refuseIfDropped(o);
    bulk.toBinary(o, buffer);
  }

  @Override
  public Object fromBinary(byte[] bytes, String manifest) throws NotSerializableException {
    return bulk.fromBinary(bytes, manifest);
  }

  @Override
  public Object fromBinary(ByteBuffer buffer, String manifest) throws NotSerializableException {
    return bulk.fromBinary(buffer, manifest);
  }

  private static void refuseIfDropped(Object o) {
    Predicate<BulkProtocol.Chunk> which = drop.get();
    if (o instanceof BulkProtocol.Chunk chunk
        && which != null
        && which.test(chunk)
        && drop.compareAndSet(which, null)) {
      throw new IllegalStateException("chunk " + chunk.seq() + " lost on purpose by the test");
    }
  }
}
