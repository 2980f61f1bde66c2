package dev.openaccel.cluster;

import dev.openaccel.runtime.DeviceBuffer;
import java.nio.ByteBuffer;
import java.nio.FloatBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * All-reduce bus bandwidth over three cluster nodes (three actor systems in this JVM, Artery TCP on
 * 127.0.0.1) swept over sizes, next to its baseline in the same run: each node sending the same
 * bytes an all-reduce sends (2(n-1)/n of the buffer) to its right neighbour at the same time, as
 * raw {@code byte[]} messages of up to 256 KiB over the same Artery connections ({@link
 * ArteryBaseline}, windowed like the bulk lane). Bus bandwidth is those bytes per node divided by
 * the time, as NCCL's tests define it (algorithm bandwidth times 2(n-1)/n), whichever algorithm the
 * size takes. For each size, rounds alternate the two and which goes first; sizes under 1 MiB take
 * several samples per round. Prints a markdown table with the target (at least 0.8 times the raw
 * ring from 16 MiB up) and writes an SVG plot. {@code cluster/run-collectives [rounds] [max MiB]
 * [svg] [min MiB]} runs it (sizes from 4 KiB, or from {@code min MiB} when given).
 */
public final class CollectiveThroughput {
  private static final Duration LONG = Duration.ofSeconds(120);
  private static final long TARGET_FROM = 16L << 20;
  private static final double TARGET = 0.8;

  private CollectiveThroughput() {}

  private record Row(long size, double[] ours, double[] raw) {}

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    int maxMib = args.length > 1 ? Integer.parseInt(args[1]) : 256;
    Path svg = Path.of(args.length > 2 ? args[2] : "cluster/target/allreduce-bandwidth.svg");
    long minSize = args.length > 3 ? (long) Integer.parseInt(args[3]) << 20 : 4096;
    if (minSize <= 0 || minSize > (long) maxMib << 20) {
      throw new IllegalArgumentException(
          "min MiB " + (minSize >> 20) + " must be from 1 to max MiB " + maxMib);
    }
    int n = 3;
    String load = Samples.loadAverage();
    String config =
        ArteryBaseline.CONFIG
            + "\nopenaccel.openreg.memory-per-device = "
            + Math.max(64, 2 * maxMib)
            + "MiB";
    List<Row> rows = new ArrayList<>();
    long smallLimit;
    try (TestCluster cluster = TestCluster.start(n, config);
        Groups groups = Groups.create(cluster, n, "throughput")) {
      smallLimit = cluster.system(0).settings().config().getBytes(CollectiveSettings.SMALL_LIMIT);
      List<ArteryBaseline> ring = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        ring.add(new ArteryBaseline(cluster.system(i), cluster.system((i + 1) % n)));
      }
      for (long size = minSize; size <= (long) maxMib << 20; size *= 2) {
        rows.add(measure(groups, ring, (int) size, rounds));
      }
    }
    System.out.printf(
        "CollectiveThroughput: %d nodes in one JVM, Artery TCP on 127.0.0.1, all-reduce (average)"
            + " of float32, %d rounds after 1 warm-up per size, bus bandwidth in MB/s (10^6 bytes),"
            + " direct exchange up to %s, ring above; load average %s before, %s after%n%n",
        n, rounds, Samples.size(smallLimit), load, Samples.loadAverage());
    System.out.println(table(rows));
    Files.createDirectories(svg.toAbsolutePath().getParent());
    Files.writeString(svg, plot(rows, n));
    System.out.println("plot: " + svg);
  }

  /** Rounds of both at one size, each sample the bus bandwidth of one operation in MB/s. */
  private static Row measure(Groups groups, List<ArteryBaseline> ring, int size, int rounds)
      throws Exception {
    int n = groups.size();
    long perNode = (long) size * 2 * (n - 1) / n;
    int perRound = (int) Math.max(1, Math.min(16, (1L << 20) / size));
    List<DeviceBuffer> data = new ArrayList<>();
    for (int rank = 0; rank < n; rank++) {
      data.add(groups.buffer(rank, floats(size / 4, rank + 1)));
    }
    double[] ours = new double[rounds * perRound];
    double[] raw = new double[rounds * perRound];
    for (int round = -1; round < rounds; round++) { // round -1 warms up
      for (int k = 0; k < perRound; k++) {
        boolean oursFirst = (round + k) % 2 == 0;
        double a = oursFirst ? allReduce(groups, data) : rawRing(ring, perNode);
        double b = oursFirst ? rawRing(ring, perNode) : allReduce(groups, data);
        if (round >= 0) {
          ours[round * perRound + k] = perNode / (oursFirst ? a : b) / 1e6;
          raw[round * perRound + k] = perNode / (oursFirst ? b : a) / 1e6;
        }
      }
    }
    for (int rank = 0; rank < n; rank++) {
      groups.release(data.get(rank));
    }
    System.err.printf(
        "%s: all-reduce %.1f MB/s, raw %.1f MB/s%n",
        Samples.size(size), Samples.median(ours), Samples.median(raw));
    return new Row(size, ours, raw);
  }

  /** Seconds for one in-place average all-reduce of {@code data} on every member at once. */
  static double allReduce(Groups groups, List<DeviceBuffer> data) {
    long start = System.nanoTime();
    List<Work> works = new ArrayList<>();
    for (int rank = 0; rank < groups.size(); rank++) {
      works.add(
          groups.allReduceInPlace(rank, data.get(rank), ElementType.FLOAT32, ReduceOp.AVERAGE));
    }
    for (Work work : works) {
      if (!work.synchronize(LONG)) {
        throw new IllegalStateException(work + " did not complete within " + LONG);
      }
    }
    return (System.nanoTime() - start) / 1e9;
  }

  private static double rawRing(List<ArteryBaseline> ring, long perNode) throws Exception {
    long start = System.nanoTime();
    List<CompletableFuture<Double>> sends = new ArrayList<>();
    for (ArteryBaseline link : ring) {
      sends.add(link.sendAsync(true, perNode, (int) Math.min(256 << 10, perNode)));
    }
    CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new))
        .get(LONG.toSeconds(), TimeUnit.SECONDS);
    return (System.nanoTime() - start) / 1e9;
  }

  /** {@code count} float32 values of no particular meaning, cheap to make at 256 MiB. */
  static byte[] floats(int count, int seed) {
    byte[] bytes = new byte[count * 4];
    FloatBuffer values = ByteBuffer.wrap(bytes).asFloatBuffer();
    for (int i = 0; i < count; i++) {
      values.put(i, seed * (i % 1000) / 1000f);
    }
    return bytes;
  }

  private static String table(List<Row> rows) {
    StringBuilder out = new StringBuilder();
    out.append("| size | all-reduce busbw, median (min-max) | raw ring, median (min-max) |")
        .append(" ratio | target >= 0.8x from 16 MiB |\n|---:|---:|---:|---:|:---|\n");
    for (Row row : rows) {
      double ratio = Samples.median(row.ours()) / Samples.median(row.raw());
      String target = row.size() < TARGET_FROM ? "-" : ratio >= TARGET ? "pass" : "FAIL";
      out.append(
          String.format(
              "| %s | %.1f (%.1f-%.1f) | %.1f (%.1f-%.1f) | %.2f | %s |%n",
              Samples.size(row.size()),
              Samples.median(row.ours()),
              Samples.min(row.ours()),
              Samples.max(row.ours()),
              Samples.median(row.raw()),
              Samples.min(row.raw()),
              Samples.max(row.raw()),
              ratio,
              target));
    }
    return out.toString();
  }

  private static String plot(List<Row> rows, int n) {
    long[] sizes = rows.stream().mapToLong(Row::size).toArray();
    double[] ours = rows.stream().mapToDouble(row -> Samples.median(row.ours())).toArray();
    double[] raw = rows.stream().mapToDouble(row -> Samples.median(row.raw())).toArray();
    return SvgPlot.render(
        "All-reduce bus bandwidth, " + n + " nodes in one JVM (Artery TCP, 127.0.0.1), medians",
        "MB/s",
        sizes,
        List.of(
            new SvgPlot.Series("all-reduce", "#1f77b4", ours),
            new SvgPlot.Series("raw byte[] ring", "#d62728", raw)));
  }
}
