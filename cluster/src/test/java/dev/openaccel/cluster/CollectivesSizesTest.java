package dev.openaccel.cluster;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.DeviceExecutionException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every collective with two and four nodes, small all-reduces both exchanged directly and sent
 * round the ring, all-reduces of 64 MiB with two, and a member that leaves the cluster in the
 * middle of an operation: the others fail it, naming the node and the operation.
 */
class CollectivesSizesTest {

  @Test
  void everyOpWithTwoNodesAndSmallAllReducesOnTheRingTooThen64MiB() {
    try (TestCluster cluster = TestCluster.start(2)) {
      try (Groups groups = Groups.create(cluster, 2, "two")) {
        EveryOp.check(groups);
      }
      try (Groups ring = Groups.create(cluster, 2, "two-ring", 0)) {
        EveryOp.allReduces(ring);
      }
      // 64 MiB, and 4 bytes more: a count the member count does not divide. A group each, so
      // that closing it frees the first one's buffers (a device holds 256 MiB).
      for (int count : new int[] {16 << 20, (16 << 20) + 1}) {
        try (Groups groups = Groups.create(cluster, 2, "two-" + count)) {
          CollectivesTest.checkAllReduce(groups, ElementType.FLOAT32, ReduceOp.SUM, count, count);
        }
      }
    }
  }

  @Test
  void everyOpWithFourNodesAndSmallAllReducesOnTheRingTooThenAMemberLeavesMidOperation() {
    try (TestCluster cluster = TestCluster.start(4)) {
      try (Groups ring = Groups.create(cluster, 4, "four-ring", 0)) {
        EveryOp.allReduces(ring);
      }
      Groups groups = Groups.create(cluster, 4, "four");
      EveryOp.check(groups);
      List<DeviceBuffer> data = new ArrayList<>();
      for (int rank = 0; rank < 4; rank++) {
        data.add(groups.buffer(rank, new byte[1 << 20]));
      }
      // The others wait in the operation for node 3, which never takes part and then leaves.
      List<Work> works = new ArrayList<>();
      for (int rank = 0; rank < 3; rank++) {
        works.add(groups.sumInPlace(rank, data.get(rank)));
      }
      String leaving = cluster.node(3).selfNode();
      cluster.terminate(3);
      for (int rank = 0; rank < 3; rank++) {
        Work work = works.get(rank);
        DeviceExecutionException e =
            assertThrows(DeviceExecutionException.class, () -> work.synchronize(TestCluster.WAIT));
        assertTrue(e.getMessage().startsWith("allReduce #"), e.getMessage());
        assertTrue(
            e.getMessage().contains("node " + leaving + " left the cluster"), e.getMessage());
      }
    }
  }
}
