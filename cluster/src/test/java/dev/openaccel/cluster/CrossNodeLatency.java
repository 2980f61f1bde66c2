package dev.openaccel.cluster;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.Stream;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * Cross-node event resolution latency on loopback, next to plain Pekko remote messages in the same
 * run: two cluster nodes (two actor systems in this JVM, Artery TCP on 127.0.0.1, so both read the
 * same {@code System.nanoTime} clock), idle and while a {@link BulkLoad} pushes 64 MiB copies
 * between the same two nodes.
 *
 * <p>Event hop: node A's stream holds at a gate, then records an interprocess event; node B has
 * opened it, makes a stream of its own wait for it and enqueues a kernel. A fence (one more round
 * trip on the same link) makes sure B's wait has reached A. The clock starts when the gate opens
 * and stops when B's kernel starts: A's stream reaches the record, A tells B, B's stream runs it.
 *
 * <p>Plain message: A asks an actor on B (Jackson CBOR, like OpenAccel's control messages); one way
 * is the time from A's send to B's actor receiving it, the round trip until A has the answer. Idle
 * and loaded phases alternate in rounds. {@code cluster/run-latency [samples] [warmup] [rounds]}
 * runs it; percentiles come from HdrHistogram.
 */
public final class CrossNodeLatency {
  private static final long LOAD_BYTES = 64L << 20;

  private CrossNodeLatency() {}

  record Ping(long sentAt, ActorRef<Pong> replyTo) implements ClusterMessage {}

  record Pong(long oneWayNanos) implements ClusterMessage {}

  /** Answers every ping: the far end of a plain round trip. */
  static Behavior<Ping> ponger() {
    return Behaviors.receive(Ping.class)
        .onMessage(
            Ping.class,
            ping -> {
              ping.replyTo().tell(new Pong(System.nanoTime() - ping.sentAt()));
              return Behaviors.same();
            })
        .build();
  }

  public static void main(String[] args) throws Exception {
    int samples = args.length > 0 ? Integer.parseInt(args[0]) : 5000;
    int warmup = args.length > 1 ? Integer.parseInt(args[1]) : 2000;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 4;
    try (TestCluster cluster = TestCluster.start(2)) {
      // A -> B like the event hop, so both cross the same connection under the same load.
      ActorRef<Ping> ponger =
          ArteryBaseline.remote(
              cluster.system(0),
              cluster.system(1),
              cluster.system(1).systemActorOf(ponger(), "latency-ponger", Props.empty()));
      Phase idle = new Phase();
      Phase loaded = new Phase();
      double loadRate = 0;
      int perRound = Math.max(1, samples / rounds);
      measure(cluster, ponger, warmup, 0, idle); // warm-up, not recorded
      for (int round = 0; round < rounds; round++) { // alternating, so machine noise spreads
        for (int k = 0; k < 2; k++) {
          if ((round + k) % 2 == 0) {
            measure(cluster, ponger, 0, perRound, idle);
          } else {
            try (BulkLoad load = new BulkLoad(cluster, LOAD_BYTES)) {
              measure(cluster, ponger, 0, perRound, loaded);
              loadRate += load.rate() / rounds;
            }
          }
        }
      }
      System.out.printf(
          "CrossNodeLatency: 2 nodes in one JVM, Artery TCP on 127.0.0.1, %d samples per phase"
              + " in %d alternating rounds after %d warm-up%n",
          perRound * rounds, rounds, warmup);
      System.out.printf("%-52s %9s %9s %9s%n", "what", "p50 us", "p99 us", "mean us");
      idle.print("idle");
      loaded.print(String.format("under bulk load (64 MiB copies A -> B at %.0f MB/s)", loadRate));
    }
  }

  /** The histograms of one phase, over all its rounds. */
  private record Phase(Histogram roundTrip, Histogram oneWay, Histogram hop) {
    Phase() {
      this(histogram(), histogram(), histogram());
    }

    void print(String what) {
      System.out.println("-- " + what);
      row("plain Pekko remote message A -> B, round trip", roundTrip);
      row("plain Pekko remote message A -> B, one way", oneWay);
      row("record on A -> kernel on B that waited starts", hop);
      System.out.printf(
          "ratio event hop / one way: p50 %.2f, p99 %.2f%n",
          hop.getValueAtPercentile(50) / (double) oneWay.getValueAtPercentile(50),
          hop.getValueAtPercentile(99) / (double) oneWay.getValueAtPercentile(99));
    }
  }

  private static void measure(
      TestCluster cluster, ActorRef<Ping> ponger, int warmup, int samples, Phase phase)
      throws Exception {
    for (int i = -warmup; i < samples; i++) {
      long start = System.nanoTime();
      Pong pong =
          AskPattern.<Ping, Pong>ask(
                  ponger,
                  replyTo -> new Ping(System.nanoTime(), replyTo),
                  Duration.ofSeconds(10),
                  cluster.system(0).scheduler())
              .toCompletableFuture()
              .get(10, TimeUnit.SECONDS);
      if (i >= 0) {
        phase.roundTrip().recordValue(System.nanoTime() - start);
        phase.oneWay().recordValue(pong.oneWayNanos());
      }
    }
    events(cluster, warmup, samples, phase.hop());
  }

  private static void events(TestCluster cluster, int warmup, int samples, Histogram nanos)
      throws Exception {
    Accelerator a = cluster.node(0).accelerator();
    Accelerator b = cluster.node(1).accelerator();
    Stream onA = a.newStream(a.currentDevice());
    Stream onB = b.newStream(b.currentDevice());
    Event event = a.newEvent(EventOptions.defaults().withInterprocess(true));
    event.record(onA);
    Event opened = b.openEvent(event.handle());
    long[] started = new long[1];
    for (int i = -warmup; i < samples; i++) {
      CompletableFuture<Void> gate = new CompletableFuture<>();
      onA.waitFor(gate);
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
        nanos.recordValue(started[0] - start);
      }
    }
    event.close();
    opened.close();
  }

  private static Histogram histogram() {
    return new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
  }

  private static void row(String what, Histogram nanos) {
    System.out.printf(
        "%-52s %9.1f %9.1f %9.1f%n",
        what,
        nanos.getValueAtPercentile(50) / 1e3,
        nanos.getValueAtPercentile(99) / 1e3,
        nanos.getMean() / 1e3);
  }
}
