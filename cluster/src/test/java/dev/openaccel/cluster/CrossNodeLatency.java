package dev.openaccel.cluster;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.internal.AcceleratorCore;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * Cross-node event resolution latency on loopback, next to a plain Pekko remote ping-pong in the
 * same run: two cluster nodes (two actor systems in this JVM, Artery TCP on 127.0.0.1).
 *
 * <p>Event: node A's stream holds at a gate, then records an interprocess event; node B has opened
 * it, makes a stream of its own wait for it and enqueues a kernel. A fence (one more round trip on
 * the same link) makes sure B's wait has reached A. The clock starts when the gate opens and stops
 * when B's kernel starts: A's stream reaches the record, A tells B, B's stream runs the kernel.
 *
 * <p>Ping-pong: B asks an actor on A and waits for the answer; the messages are Jackson CBOR like
 * OpenAccel's. {@code cluster/run-latency [samples] [warmup]} runs it.
 */
public final class CrossNodeLatency {
  private CrossNodeLatency() {}

  record Ping(long sequence, ActorRef<Pong> replyTo) implements ClusterMessage {}

  record Pong(long sequence) implements ClusterMessage {}

  private static Behavior<Ping> ponger() {
    return Behaviors.receive(Ping.class)
        .onMessage(
            Ping.class,
            ping -> {
              ping.replyTo().tell(new Pong(ping.sequence()));
              return Behaviors.same();
            })
        .build();
  }

  public static void main(String[] args) throws Exception {
    int samples = args.length > 0 ? Integer.parseInt(args[0]) : 5000;
    int warmup = args.length > 1 ? Integer.parseInt(args[1]) : 2000;
    try (TestCluster cluster = TestCluster.start(2)) {
      long[] pingPong = pingPong(cluster, warmup, samples);
      long[] events = events(cluster, warmup, samples);
      long[] oneWay = Arrays.stream(pingPong).map(rtt -> rtt / 2).toArray();
      System.out.printf(
          "CrossNodeLatency: 2 nodes in one JVM, Artery TCP on 127.0.0.1, %d samples after %d"
              + " warm-up%n",
          samples, warmup);
      System.out.printf("%-52s %9s %9s %9s%n", "what", "p50 us", "p99 us", "mean us");
      row("plain Pekko remote ping-pong, round trip", pingPong);
      row("plain Pekko remote ping-pong, one way (RTT/2)", oneWay);
      row("record on A -> stream on B starts its next kernel", events);
    }
  }

  private static long[] pingPong(TestCluster cluster, int warmup, int samples) throws Exception {
    ActorRef<Ping> local =
        cluster.system(0).systemActorOf(ponger(), "latency-ponger", Props.empty());
    ActorRef<Ping> remote =
        ActorRefResolver.get(cluster.system(1))
            .resolveActorRef(ActorRefResolver.get(cluster.system(0)).toSerializationFormat(local));
    long[] nanos = new long[samples];
    for (int i = -warmup; i < samples; i++) {
      long sequence = i;
      long start = System.nanoTime();
      AskPattern.<Ping, Pong>ask(
              remote,
              replyTo -> new Ping(sequence, replyTo),
              Duration.ofSeconds(10),
              cluster.system(1).scheduler())
          .toCompletableFuture()
          .get(10, TimeUnit.SECONDS);
      if (i >= 0) {
        nanos[i] = System.nanoTime() - start;
      }
    }
    return nanos;
  }

  private static long[] events(TestCluster cluster, int warmup, int samples) throws Exception {
    Accelerator a = cluster.node(0).accelerator();
    Accelerator b = cluster.node(1).accelerator();
    Stream onA = a.newStream(a.currentDevice());
    Stream onB = b.newStream(b.currentDevice());
    Event event = a.newEvent(EventOptions.defaults().withInterprocess(true));
    event.record(onA);
    Event opened = b.openEvent(event.handle());
    long[] nanos = new long[samples];
    long[] started = new long[1];
    for (int i = -warmup; i < samples; i++) {
      CompletableFuture<Void> gate = new CompletableFuture<>();
      AcceleratorCore.get(a.system()).router(onA.deviceType()).blockOn(onA, gate);
      event.record(onA);
      opened.block(onB);
      CountDownLatch ran = new CountDownLatch(1);
      onB.launch(
          "next",
          () -> {
            started[0] = System.nanoTime();
            ran.countDown();
          });
      b.openEvent(event.handle()).close(); // the fence: one more round trip on the same link
      long start = System.nanoTime();
      gate.complete(null);
      if (!ran.await(10, TimeUnit.SECONDS)) {
        throw new IllegalStateException("B's kernel did not start within 10 s");
      }
      if (i >= 0) {
        nanos[i] = started[0] - start;
      }
    }
    return nanos;
  }

  private static void row(String what, long[] nanos) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    System.out.printf(
        "%-52s %9.1f %9.1f %9.1f%n",
        what,
        sorted[sorted.length / 2] / 1e3,
        sorted[(int) Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)] / 1e3,
        Arrays.stream(sorted).average().orElse(0) / 1e3);
  }
}
