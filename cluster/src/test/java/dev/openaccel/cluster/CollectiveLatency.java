package dev.openaccel.cluster;

import dev.openaccel.runtime.DeviceBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.AskPattern;

/**
 * All-reduce latency by size with each algorithm forced, to find where the direct exchange stops
 * paying: three cluster nodes in this JVM (Artery TCP on 127.0.0.1), two groups over the same
 * devices and connections, one with small-limit 0 (always the ring), one with no limit (always
 * direct). One sample is one in-place float32 sum from the calls on all three members until every
 * {@code Work} completed. For each size, 8 B to 1 MiB, rounds alternate which algorithm goes first;
 * the table gives medians. Next to them, the small-message baselines between two of the nodes over
 * the same connections: an ask and its answer (Jackson CBOR, the ordinary lane), and an 8-byte raw
 * {@code byte[]} to a large-message destination and its acknowledgement (the lane the collectives'
 * bytes take). {@code cluster/run-collective-latency [rounds] [samples per round]} runs it.
 */
public final class CollectiveLatency {
  private static final Duration LONG = Duration.ofSeconds(60);
  private static final int MAX = 1 << 20;

  private CollectiveLatency() {}

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    int samples = args.length > 1 ? Integer.parseInt(args[1]) : 20;
    String load = Samples.loadAverage();
    List<Integer> sizes = new ArrayList<>();
    for (int size = 8; size <= MAX; size *= 2) {
      sizes.add(size);
    }
    double[][] ring = new double[sizes.size()][rounds * samples];
    double[][] direct = new double[sizes.size()][rounds * samples];
    double[] ask = new double[rounds * samples];
    double[] raw = new double[rounds * samples];
    try (TestCluster cluster = TestCluster.start(3, ArteryBaseline.CONFIG);
        Groups rings = Groups.create(cluster, 3, "latency-ring", 0);
        Groups directs = Groups.create(cluster, 3, "latency-direct", Long.MAX_VALUE)) {
      ActorRef<CrossNodeLatency.Ping> ponger =
          ArteryBaseline.remote(
              cluster.system(0),
              cluster.system(1),
              cluster
                  .system(1)
                  .systemActorOf(CrossNodeLatency.ponger(), "latency-ponger", Props.empty()));
      ArteryBaseline plain = new ArteryBaseline(cluster.system(0), cluster.system(1));
      List<List<DeviceBuffer>> ringData = buffers(rings, sizes);
      List<List<DeviceBuffer>> directData = buffers(directs, sizes);
      for (int round = -1; round < rounds; round++) { // round -1 warms up
        for (int i = 0; i < sizes.size(); i++) {
          for (int k = 0; k < samples; k++) {
            boolean ringFirst = (round + i + k) % 2 == 0;
            double a =
                allReduce(ringFirst ? rings : directs, (ringFirst ? ringData : directData), i);
            double b =
                allReduce(ringFirst ? directs : rings, (ringFirst ? directData : ringData), i);
            if (round >= 0) {
              ring[i][round * samples + k] = ringFirst ? a : b;
              direct[i][round * samples + k] = ringFirst ? b : a;
            }
          }
        }
        for (int k = 0; k < samples; k++) {
          double a = ask(cluster, ponger);
          double b = plain.send(true, 8, 8) * 1e6;
          if (round >= 0) {
            ask[round * samples + k] = a;
            raw[round * samples + k] = b;
          }
        }
      }
    }
    System.out.printf(
        "CollectiveLatency: 3 nodes in one JVM, Artery TCP on 127.0.0.1, in-place float32 sum,"
            + " %d samples per size and algorithm in %d rounds after 1 warm-up round;"
            + " load average %s before, %s after%n%n",
        rounds * samples, rounds, load, Samples.loadAverage());
    System.out.println(table(sizes, ring, direct));
    System.out.printf(
        "Artery ask/answer (Jackson CBOR, ordinary lane), node 0 -> 1 -> 0: median %.0f us%n",
        Samples.median(ask));
    System.out.printf(
        "raw 8-byte byte[] to a large-message destination + ack, 0 -> 1 -> 0: median %.0f us%n",
        Samples.median(raw));
  }

  /** One buffer per size on every member, in rank order per size. */
  private static List<List<DeviceBuffer>> buffers(Groups groups, List<Integer> sizes) {
    List<List<DeviceBuffer>> all = new ArrayList<>();
    for (int size : sizes) {
      List<DeviceBuffer> perRank = new ArrayList<>();
      for (int rank = 0; rank < groups.size(); rank++) {
        perRank.add(groups.buffer(rank, Reference.random(ElementType.FLOAT32, size / 4, rank)));
      }
      all.add(perRank);
    }
    return all;
  }

  /** Microseconds from the calls on every member until every Work completed. */
  private static double allReduce(Groups groups, List<List<DeviceBuffer>> data, int size) {
    long start = System.nanoTime();
    List<Work> works = new ArrayList<>();
    for (int rank = 0; rank < groups.size(); rank++) {
      DeviceBuffer buffer = data.get(size).get(rank);
      works.add(
          groups
              .group(rank)
              .allReduce(groups.stream(rank), buffer, buffer, ElementType.FLOAT32, ReduceOp.SUM));
    }
    for (Work work : works) {
      if (!work.synchronize(LONG)) {
        throw new IllegalStateException(work + " did not complete within " + LONG);
      }
    }
    return (System.nanoTime() - start) / 1e3;
  }

  private static double ask(TestCluster cluster, ActorRef<CrossNodeLatency.Ping> ponger)
      throws Exception {
    long start = System.nanoTime();
    AskPattern.<CrossNodeLatency.Ping, CrossNodeLatency.Pong>ask(
            ponger,
            replyTo -> new CrossNodeLatency.Ping(System.nanoTime(), replyTo),
            LONG,
            cluster.system(0).scheduler())
        .toCompletableFuture()
        .get(LONG.toSeconds(), TimeUnit.SECONDS);
    return (System.nanoTime() - start) / 1e3;
  }

  private static String table(List<Integer> sizes, double[][] ring, double[][] direct) {
    StringBuilder out = new StringBuilder();
    out.append("| size | ring (small-limit 0), median us | direct, median us | direct/ring |\n")
        .append("|---:|---:|---:|---:|\n");
    int ringFrom = sizes.size(); // from here up, the ring is faster at every size
    for (int i = 0; i < sizes.size(); i++) {
      double r = Samples.median(ring[i]);
      double d = Samples.median(direct[i]);
      ringFrom = r < d ? Math.min(ringFrom, i) : sizes.size();
      out.append(
          String.format("| %s | %.0f | %.0f | %.2f |%n", Samples.size(sizes.get(i)), r, d, d / r));
    }
    out.append(
        ringFrom == sizes.size()
            ? "\ndirect is not slower at the largest size\n"
            : "\nthe ring is faster at every size from "
                + Samples.size(sizes.get(ringFrom))
                + " up\n");
    return out.toString();
  }
}
