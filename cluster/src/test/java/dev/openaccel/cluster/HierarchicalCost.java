package dev.openaccel.cluster;

import dev.openaccel.runtime.DeviceBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * What the hierarchical all-reduce's phases inside a node cost: two nodes (two actor systems in
 * this JVM, Artery TCP on 127.0.0.1) of two OpenReg devices each, an average all-reduce of the same
 * float32 buffer size over all four devices (hierarchical: the second device of each node hands its
 * input to the first and gets the result back in memory) and over the first device of each node
 * only (the ring of two), alternated round by round, and which goes first. Both send the same bytes
 * between the nodes (one buffer each way per node), so the difference is the in-node phases; a flat
 * ring over the four devices would send three buffers each way per node. Prints the median
 * milliseconds per operation of each and their ratio. {@code java -cp <the cluster's test class
 * path> dev.openaccel.cluster.HierarchicalCost [rounds] [MiB...]}; defaults 5 rounds, 4 16 64.
 */
public final class HierarchicalCost {
  private HierarchicalCost() {}

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    List<Integer> sizes = new ArrayList<>();
    for (int i = 1; i < args.length; i++) {
      sizes.add(Integer.parseInt(args[i]));
    }
    if (sizes.isEmpty()) {
      sizes = List.of(4, 16, 64);
    }
    int max = sizes.stream().mapToInt(Integer::intValue).max().orElseThrow();
    String config =
        ArteryBaseline.CONFIG
            + "\nopenaccel.openreg.device-count = 2"
            + "\nopenaccel.openreg.memory-per-device = "
            + Math.max(64, 2 * max)
            + "MiB";
    String load = Samples.loadAverage();
    StringBuilder table = new StringBuilder();
    table.append("| size | 2 nodes x 2 devices, ms | 2 nodes x 1 device, ms | ratio |\n");
    table.append("|---:|---:|---:|---:|\n");
    try (TestCluster cluster = TestCluster.start(2, config);
        Groups four =
            Groups.create(
                cluster,
                CollectivesLocalTest.devices(cluster, 0, 0, 1, 0, 0, 1, 1, 1),
                "four",
                -1);
        Groups two =
            Groups.create(cluster, CollectivesLocalTest.devices(cluster, 0, 0, 1, 0), "two", -1)) {
      for (int mib : sizes) {
        int size = mib << 20;
        List<DeviceBuffer> onFour = buffers(four, size);
        List<DeviceBuffer> onTwo = buffers(two, size);
        double[] hierarchical = new double[rounds];
        double[] pair = new double[rounds];
        for (int round = -1; round < rounds; round++) { // round -1 warms up
          boolean fourFirst = Math.floorMod(round, 2) == 0;
          double a =
              CollectiveThroughput.allReduce(fourFirst ? four : two, fourFirst ? onFour : onTwo);
          double b =
              CollectiveThroughput.allReduce(fourFirst ? two : four, fourFirst ? onTwo : onFour);
          if (round >= 0) {
            hierarchical[round] = 1e3 * (fourFirst ? a : b);
            pair[round] = 1e3 * (fourFirst ? b : a);
          }
        }
        onFour.forEach(four::release);
        onTwo.forEach(two::release);
        double h = Samples.median(hierarchical);
        double p = Samples.median(pair);
        table.append(
            String.format(
                "| %d MiB | %.1f (%.1f-%.1f) | %.1f (%.1f-%.1f) | %.2f |%n",
                mib,
                h,
                Samples.min(hierarchical),
                Samples.max(hierarchical),
                p,
                Samples.min(pair),
                Samples.max(pair),
                h / p));
      }
    }
    System.out.printf(
        "HierarchicalCost: %d rounds after 1 warm-up per size, average all-reduce of float32, median"
            + " (min-max) ms per operation; load average %s before, %s after%n%n%s",
        rounds, load, Samples.loadAverage(), table);
  }

  private static List<DeviceBuffer> buffers(Groups groups, int size) {
    List<DeviceBuffer> data = new ArrayList<>();
    for (int rank = 0; rank < groups.size(); rank++) {
      data.add(groups.buffer(rank, CollectiveThroughput.floats(size / 4, rank + 1)));
    }
    return data;
  }
}
