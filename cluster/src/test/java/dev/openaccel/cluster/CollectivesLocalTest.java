package dev.openaccel.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.openaccel.runtime.DeviceBuffer;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Process groups with several members on one node, on two nodes of three OpenReg devices each:
 * every collective against {@link Reference} (all-reduce in the hierarchical order) over two and
 * three devices of one node, and over two devices of each of two nodes with the ranks interleaved
 * and grouped (small all-reduces across the two nodes also forced round the ring), counts neither
 * the members nor the nodes divide, several pieces; messages between members of one node never
 * reach the bulk lane.
 */
class CollectivesLocalTest {
  private static TestCluster cluster;

  @BeforeAll
  static void start() {
    cluster = TestCluster.start(2, "openaccel.openreg.device-count = 3");
  }

  @AfterAll
  static void stop() {
    cluster.close();
  }

  /** Devices {@code node}:{@code index} for each pair of {@code nodeIndex}. */
  static List<RemoteDevice> devices(TestCluster cluster, int... nodeIndex) {
    List<RemoteDevice> devices = new ArrayList<>();
    for (int i = 0; i < nodeIndex.length; i += 2) {
      devices.add(cluster.device(nodeIndex[i], nodeIndex[i + 1]));
    }
    return devices;
  }

  @Test
  void everyOpOverTwoAndThreeDevicesOfOneNodeStaysInMemory() {
    List<List<RemoteDevice>> lists =
        List.of(devices(cluster, 0, 0, 0, 1), devices(cluster, 0, 2, 0, 0, 0, 1));
    for (List<RemoteDevice> members : lists) {
      String name = "one-node-" + members.size();
      try (Groups groups = Groups.create(cluster, members, name, -1)) {
        EveryOp.check(groups);
        CollectivesTest.checkAllReduce(groups, ElementType.FLOAT32, ReduceOp.AVERAGE, 300_001, 1);
      }
      Groups.awaitNothingHeld(cluster, 1, name);
    }
    String self = cluster.node(0).selfNode();
    assertFalse(cluster.node(0).bulk().sendsTo(self), "no bytes went to the node itself");
  }

  @Test
  void everyOpOverTwoDevicesOfEachOfTwoNodesInterleavedAndGrouped() {
    List<RemoteDevice> interleaved = devices(cluster, 0, 0, 1, 0, 0, 1, 1, 1);
    try (Groups groups = Groups.create(cluster, interleaved, "two-by-two", -1)) {
      EveryOp.check(groups);
      // Round the ring between the two nodes, in several pieces, counts 2 and 4 do not divide.
      CollectivesTest.checkAllReduce(groups, ElementType.FLOAT32, ReduceOp.AVERAGE, 300_001, 2);
      CollectivesTest.checkAllReduce(groups, ElementType.INT64, ReduceOp.SUM, 100_003, 3);
    }
    try (Groups ring = Groups.create(cluster, interleaved, "two-by-two-ring", 0)) {
      EveryOp.allReduces(ring);
    }
    List<RemoteDevice> grouped = devices(cluster, 1, 1, 1, 0, 0, 2, 0, 0, 0, 1);
    try (Groups groups = Groups.create(cluster, grouped, "two-plus-three", -1)) {
      EveryOp.check(groups);
      CollectivesTest.checkAllReduce(groups, ElementType.FLOAT64, ReduceOp.PRODUCT, 70_001, 4);
    }
    for (String name : List.of("two-by-two", "two-by-two-ring", "two-plus-three")) {
      Groups.awaitNothingHeld(cluster, 2, name);
    }
    for (int node = 0; node < 2; node++) {
      String self = cluster.node(node).selfNode();
      assertFalse(cluster.node(node).bulk().sendsTo(self), "no bytes went to the node itself");
    }
  }

  @Test
  void anAllReduceGivesTheSameBitsRunToRun() {
    List<RemoteDevice> members = devices(cluster, 0, 0, 1, 0, 0, 1, 1, 1);
    int count = 5003;
    List<byte[]> first = new ArrayList<>();
    for (int run = 0; run < 2; run++) {
      try (Groups groups = Groups.create(cluster, members, "rerun-" + run, -1)) {
        List<DeviceBuffer> data = new ArrayList<>();
        for (int rank = 0; rank < 4; rank++) {
          byte[] input = Reference.random(ElementType.FLOAT32, count, rank);
          data.add(groups.buffer(rank, input));
        }
        groups.onAll(
            rank ->
                groups.allReduceInPlace(rank, data.get(rank), ElementType.FLOAT32, ReduceOp.SUM));
        for (int rank = 0; rank < 4; rank++) {
          byte[] result = groups.read(rank, data.get(rank));
          if (run == 0 && rank == 0) {
            first.add(result);
          }
          assertEquals(ByteBuffer.wrap(first.get(0)), ByteBuffer.wrap(result), "rank " + rank);
        }
      }
    }
  }

  @Test
  void twoMembersOfOneNodeCreateTheGroupFromTwoThreadsWithTheBlockingCall() {
    List<RemoteDevice> members = devices(cluster, 0, 0, 0, 1, 1, 0);
    ExecutorService threads = Executors.newFixedThreadPool(3);
    try {
      List<CompletableFuture<ProcessGroup>> created = new ArrayList<>();
      for (int rank = 0; rank < 3; rank++) {
        Collectives collectives = cluster.node(rank == 2 ? 1 : 0).collectives();
        RemoteDevice device = members.get(rank);
        created.add(
            CompletableFuture.supplyAsync(
                () -> collectives.create("threads", members, device), threads));
      }
      List<ProcessGroup> groups = new ArrayList<>();
      created.forEach(group -> groups.add(Groups.await(group)));
      try (Groups all = Groups.of(cluster, groups)) {
        for (int rank = 0; rank < 3; rank++) {
          assertEquals(rank, all.group(rank).rank());
          assertEquals(members.get(rank), all.group(rank).device());
        }
        CollectivesTest.checkAllReduce(all, ElementType.INT32, ReduceOp.SUM, 7, 5);
        all.onAll(rank -> all.group(rank).barrier(all.stream(rank)));
      }
    } finally {
      threads.shutdown();
    }
  }
}
