package dev.openaccel.cluster;

import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * Plain Pekko remoting between two actor systems, without OpenAccel, as the yardstick for the
 * cluster module's figures: a number of bytes as a stream of messages from node A to node B, either
 * Jackson CBOR records with a {@code byte[]} field on the ordinary lane or raw {@code byte[]}
 * messages (Pekko's byte array serializer) to a large-message destination. The sender keeps at most
 * {@link #WINDOW} bytes unacknowledged, the receiver acknowledges every message, so nothing
 * overflows Artery's queues (the same bound as the bulk lane's default window).
 *
 * <p>Owns: the sender's in-flight count, inside its actor.
 */
final class ArteryBaseline {
  /** Path of the raw sink; a large-message destination in {@link #CONFIG}. */
  static final String RAW_SINK = "throughput-raw-sink";

  static final String CONFIG =
      "pekko.remote.artery.large-message-destinations += \"/system/" + RAW_SINK + "\"";

  static final long WINDOW = 16L << 20;

  record Block(byte[] data) implements ClusterMessage {}

  record Ack(int length) implements ClusterMessage {}

  private record Start(
      ActorRef<Object> target,
      long total,
      byte[] payload,
      boolean raw,
      CompletableFuture<Void> done) {}

  private final ActorRef<Object> source;
  private final ActorRef<Object> rawSink;
  private final ActorRef<Object> cborSink;

  /** Spawns the source on {@code a} and the sinks on {@code b}. */
  ArteryBaseline(ActorSystem<?> a, ActorSystem<?> b) {
    source = a.systemActorOf(source(), "throughput-source", Props.empty());
    ActorRef<Ack> ackTo = remote(b, a, source.narrow());
    rawSink = remote(a, b, b.systemActorOf(sink(ackTo), RAW_SINK, Props.empty()));
    cborSink = remote(a, b, b.systemActorOf(sink(ackTo), "throughput-cbor-sink", Props.empty()));
  }

  /**
   * Sends {@code total} bytes in messages of {@code size} bytes (the last one shorter if {@code
   * size} does not divide it) and returns the seconds until the last one was acknowledged.
   */
  double send(boolean raw, long total, int size) throws Exception {
    return sendAsync(raw, total, size).get(120, TimeUnit.SECONDS);
  }

  /** Like {@link #send}, without blocking: several links can send at once. */
  CompletableFuture<Double> sendAsync(boolean raw, long total, int size) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    long start = System.nanoTime();
    source.tell(new Start(raw ? rawSink : cborSink, total, new byte[size], raw, done));
    return done.thenApply(ignored -> (System.nanoTime() - start) / 1e9);
  }

  /** {@code ref} of {@code owner}, as {@code viewer} reaches it over the network. */
  static <T> ActorRef<T> remote(ActorSystem<?> viewer, ActorSystem<?> owner, ActorRef<T> ref) {
    return ActorRefResolver.get(viewer)
        .resolveActorRef(ActorRefResolver.get(owner).toSerializationFormat(ref));
  }

  private static Behavior<Object> sink(ActorRef<Ack> ackTo) {
    return Behaviors.receive(Object.class)
        .onMessage(byte[].class, bytes -> ack(ackTo, bytes.length))
        .onMessage(Block.class, block -> ack(ackTo, block.data().length))
        .build();
  }

  private static Behavior<Object> ack(ActorRef<Ack> ackTo, int length) {
    ackTo.tell(new Ack(length));
    return Behaviors.same();
  }

  private static Behavior<Object> source() {
    return Behaviors.setup(
        context -> {
          long[] state = new long[3]; // sent, acknowledged, in flight
          Start[] current = new Start[1];
          Runnable pump =
              () -> {
                Start run = current[0];
                while (state[0] < run.total() && state[2] < WINDOW) {
                  int length = (int) Math.min(run.payload().length, run.total() - state[0]);
                  byte[] payload =
                      length == run.payload().length
                          ? run.payload()
                          : Arrays.copyOf(run.payload(), length);
                  run.target().tell(run.raw() ? payload : new Block(payload));
                  state[0] += length;
                  state[2] += length;
                }
              };
          return Behaviors.receive(Object.class)
              .onMessage(
                  Start.class,
                  start -> {
                    current[0] = start;
                    state[0] = state[1] = state[2] = 0;
                    pump.run();
                    return Behaviors.same();
                  })
              .onMessage(
                  Ack.class,
                  ack -> {
                    state[1] += ack.length();
                    state[2] -= ack.length();
                    if (state[1] >= current[0].total()) {
                      current[0].done().complete(null);
                    } else {
                      pump.run();
                    }
                    return Behaviors.same();
                  })
              .build();
        });
  }
}
