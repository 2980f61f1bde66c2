package dev.openaccel.cluster;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Bulk throughput between two cluster nodes (two actor systems in this JVM, Artery TCP on
 * 127.0.0.1) next to plain Pekko remoting in the same run ({@link ArteryBaseline}): a 64 MiB {@code
 * RemoteStream.copy} pushed (stream on the source's node) and pulled (stream on the destination's
 * node), 64 MiB of 128 KiB Jackson CBOR messages, and 64 MiB of 256 KiB raw {@code byte[]} messages
 * to a large-message destination. Rounds rotate the order of the five, so background load on the
 * machine spreads over all of them. {@code cluster/run-throughput [rounds] [MiB]} runs it.
 */
public final class CrossNodeThroughput {
  private static final Duration LONG = Duration.ofSeconds(120);
  private static final com.sun.management.OperatingSystemMXBean CPU =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  private CrossNodeThroughput() {}

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    int mib = args.length > 1 ? Integer.parseInt(args[1]) : 64;
    long size = (long) mib << 20;
    String config =
        ArteryBaseline.CONFIG + "\nopenaccel.openreg.memory-per-device = " + (3 * mib) + "MiB";
    try (TestCluster cluster = TestCluster.start(2, config)) {
      ArteryBaseline plain = new ArteryBaseline(cluster.system(0), cluster.system(1));
      ClusterAccelerator a = cluster.node(0);
      ClusterAccelerator b = cluster.node(1);
      RemoteBuffer source = a.allocate(cluster.device(0, 0), size);
      RemoteBuffer target = a.allocate(cluster.device(1, 0), size);
      RemoteStream onA = a.newStream(cluster.device(0, 0));
      RemoteStream onB = b.newStream(cluster.device(1, 0));
      byte[] pattern = new byte[(int) size];
      Patterns.fill(pattern, new SplittableRandom(7));
      onA.write(pattern, source);
      check(onA.synchronize(LONG), "filling the source");
      Map<String, Measure> kinds = new LinkedHashMap<>();
      kinds.put("OpenAccel copy, push (stream on A)", () -> copy(onA, source, target));
      kinds.put("OpenAccel copy, pull (stream on B)", () -> copy(onB, source, target));
      kinds.put(
          "plain Artery, 128 KiB Jackson CBOR msgs", () -> plain.send(false, size, 128 << 10));
      kinds.put("plain Artery, 256 KiB raw byte[] msgs", () -> plain.send(true, size, 256 << 10));
      kinds.put("plain Artery, 1 MiB raw byte[] msgs", () -> plain.send(true, size, 1 << 20));
      List<String> names = new ArrayList<>(kinds.keySet());
      Map<String, double[]> rates = new LinkedHashMap<>();
      Map<String, double[]> cpu = new LinkedHashMap<>();
      names.forEach(name -> rates.put(name, new double[rounds]));
      names.forEach(name -> cpu.put(name, new double[rounds]));
      for (int round = -1; round < rounds; round++) { // round -1 warms up
        for (int k = 0; k < names.size(); k++) {
          String name = names.get(Math.floorMod(round + k, names.size()));
          long cpuBefore = CPU.getProcessCpuTime();
          double seconds = kinds.get(name).seconds();
          if (round >= 0) {
            rates.get(name)[round] = size / seconds / 1e6;
            cpu.get(name)[round] = (CPU.getProcessCpuTime() - cpuBefore) / 1e6;
          }
        }
      }
      System.out.printf(
          "CrossNodeThroughput: 2 nodes in one JVM, Artery TCP on 127.0.0.1, %d MiB per transfer,"
              + " %d rounds after 1 warm-up round, MB = 10^6 bytes%n",
          mib, rounds);
      System.out.printf("%-42s %10s %10s %10s   %s%n", "what", "median", "min", "max", "MB/s");
      rates.forEach(CrossNodeThroughput::row);
      System.out.printf(
          "%-42s %10s %10s %10s   %s%n",
          "CPU time of the JVM (both nodes)", "median", "min", "max", "ms per transfer");
      cpu.forEach(CrossNodeThroughput::row);
      double raw =
          Math.max(
              Samples.median(rates.get(names.get(3))), Samples.median(rates.get(names.get(4))));
      double cbor = Samples.median(rates.get(names.get(2)));
      System.out.printf(
          "ratios of medians (raw: the faster raw row): push/raw %.2f, pull/raw %.2f, push/CBOR %.2f, pull/CBOR %.2f%n",
          Samples.median(rates.get(names.get(0))) / raw,
          Samples.median(rates.get(names.get(1))) / raw,
          Samples.median(rates.get(names.get(0))) / cbor,
          Samples.median(rates.get(names.get(1))) / cbor);
    }
  }

  @FunctionalInterface
  private interface Measure {
    double seconds() throws Exception;
  }

  private static double copy(RemoteStream stream, RemoteBuffer src, RemoteBuffer dst) {
    long start = System.nanoTime();
    stream.copy(src, dst);
    check(stream.synchronize(LONG), "a copy");
    return (System.nanoTime() - start) / 1e9;
  }

  private static void check(boolean done, String what) {
    if (!done) {
      throw new IllegalStateException(what + " did not complete within " + LONG);
    }
  }

  private static void row(String name, double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    System.out.printf(
        "%-42s %10.0f %10.0f %10.0f   rounds: %s%n",
        name,
        Samples.median(values),
        sorted[0],
        sorted[sorted.length - 1],
        Arrays.toString(Arrays.stream(values).mapToLong(Math::round).toArray()));
  }
}
