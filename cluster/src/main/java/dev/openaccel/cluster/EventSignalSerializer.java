package dev.openaccel.cluster;

import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.actor.EventSignal;
import java.io.NotSerializableException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.serialization.SerializerWithStringManifest;

/**
 * Writes {@link EventSignal}s for a subscriber on another node: a completion as its three numbers;
 * a failure as its two numbers and a description of its cause (the cause's class and message, and
 * the node that reported it), which arrives as a {@link DeviceExecutionException} (an exception's
 * own class and stack need not exist, or mean anything, on the receiving node). Internal; bound in
 * {@code reference.conf}.
 */
public final class EventSignalSerializer extends SerializerWithStringManifest {
  private static final String COMPLETED = "C";
  private static final String FAILED = "F";

  private final String node;

  /** Pekko's constructor for serializers. */
  public EventSignalSerializer(ExtendedActorSystem system) {
    this.node = system.provider().getDefaultAddress().toString();
  }

  @Override
  public int identifier() {
    return 0x0AACCE12;
  }

  @Override
  public String manifest(Object o) {
    if (o instanceof EventSignal.Completed) {
      return COMPLETED;
    }
    if (o instanceof EventSignal.Failed) {
      return FAILED;
    }
    throw new IllegalArgumentException("not an event signal: " + o.getClass().getName());
  }

  @Override
  public byte[] toBinary(Object o) {
    if (o instanceof EventSignal.Completed c) {
      return ByteBuffer.allocate(24)
          .putLong(c.eventId())
          .putLong(c.generation())
          .putLong(c.completedAtNanos())
          .array();
    }
    EventSignal.Failed f = (EventSignal.Failed) o;
    byte[] cause = (f.cause() + " (reported by " + node + ")").getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(16 + cause.length)
        .putLong(f.eventId())
        .putLong(f.generation())
        .put(cause)
        .array();
  }

  @Override
  public Object fromBinary(byte[] bytes, String manifest) throws NotSerializableException {
    ByteBuffer in = ByteBuffer.wrap(bytes);
    long eventId = in.getLong();
    long generation = in.getLong();
    return switch (manifest) {
      case COMPLETED -> new EventSignal.Completed(eventId, generation, in.getLong());
      case FAILED ->
          new EventSignal.Failed(
              eventId,
              generation,
              new DeviceExecutionException(
                  new String(bytes, 16, bytes.length - 16, StandardCharsets.UTF_8)));
      default -> throw new NotSerializableException("unknown event signal manifest " + manifest);
    };
  }
}
