package dev.openaccel.cluster;

import dev.openaccel.runtime.DeviceBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Bus bandwidth of a ring all-reduce over three cluster nodes (three actor systems in this JVM,
 * Artery TCP on 127.0.0.1) next to its baseline in the same run: each node sending the same bytes
 * an all-reduce sends (2(n-1)/n of the buffer) to its right neighbour at the same time, as 256 KiB
 * raw {@code byte[]} messages over the same Artery connections ({@link ArteryBaseline}, windowed
 * like the bulk lane). Bus bandwidth is those bytes per node divided by the time, as NCCL's tests
 * define it. Rounds alternate the two. {@code cluster/run-collectives [rounds] [MiB]} runs it.
 */
public final class CollectiveThroughput {
  private static final Duration LONG = Duration.ofSeconds(120);

  private CollectiveThroughput() {}

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    int mib = args.length > 1 ? Integer.parseInt(args[1]) : 32;
    int n = 3;
    int size = mib << 20;
    long perNode = (long) size * 2 * (n - 1) / n;
    String config =
        ArteryBaseline.CONFIG + "\nopenaccel.openreg.memory-per-device = " + (2 * mib) + "MiB";
    try (TestCluster cluster = TestCluster.start(n, config);
        Groups groups = Groups.create(cluster, n, "throughput")) {
      List<ArteryBaseline> ring = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        ring.add(new ArteryBaseline(cluster.system(i), cluster.system((i + 1) % n)));
      }
      List<DeviceBuffer> data = new ArrayList<>();
      for (int rank = 0; rank < n; rank++) {
        data.add(groups.buffer(rank, Reference.random(ElementType.FLOAT32, size / 4, rank)));
      }
      double[] collective = new double[rounds];
      double[] raw = new double[rounds];
      for (int round = -1; round < rounds; round++) { // round -1 warms up
        double seconds = allReduce(groups, data);
        double baseline = rawRing(ring, perNode);
        if (round >= 0) {
          collective[round] = perNode / seconds / 1e6;
          raw[round] = perNode / baseline / 1e6;
        }
      }
      System.out.printf(
          "CollectiveThroughput: %d nodes in one JVM, Artery TCP on 127.0.0.1, all-reduce of %d MiB"
              + " float32 (%d bytes sent per node), %d rounds after 1 warm-up, MB = 10^6 bytes%n",
          n, mib, perNode, rounds);
      row("all-reduce bus bandwidth (MB/s)", collective);
      row("raw byte[] ring, same bytes (MB/s)", raw);
      System.out.printf(
          "ratio of medians all-reduce/raw: %.2f%n", median(collective) / median(raw));
    }
  }

  private static double allReduce(Groups groups, List<DeviceBuffer> data) {
    long start = System.nanoTime();
    List<Work> works = new ArrayList<>();
    for (int rank = 0; rank < groups.size(); rank++) {
      works.add(
          groups
              .group(rank)
              .allReduce(
                  groups.stream(rank),
                  data.get(rank),
                  data.get(rank),
                  ElementType.FLOAT32,
                  ReduceOp.AVERAGE));
    }
    for (Work work : works) {
      if (!work.synchronize(LONG)) {
        throw new IllegalStateException(work + " did not complete within " + LONG);
      }
    }
    return (System.nanoTime() - start) / 1e9;
  }

  private static double rawRing(List<ArteryBaseline> ring, long perNode) {
    long start = System.nanoTime();
    List<CompletableFuture<Double>> sends = new ArrayList<>();
    for (ArteryBaseline link : ring) {
      sends.add(
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return link.send(true, perNode, 256 << 10);
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              }));
    }
    sends.forEach(CompletableFuture::join);
    return (System.nanoTime() - start) / 1e9;
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  private static void row(String name, double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    System.out.printf(
        "%-38s median %6.0f  min %6.0f  max %6.0f  rounds: %s%n",
        name,
        median(values),
        sorted[0],
        sorted[sorted.length - 1],
        Arrays.toString(Arrays.stream(values).mapToLong(Math::round).toArray()));
  }
}
