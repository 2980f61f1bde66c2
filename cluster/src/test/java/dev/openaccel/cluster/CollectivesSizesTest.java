package dev.openaccel.cluster;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.DeviceExecutionException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every collective with two and four nodes, and a member that leaves the cluster in the middle of
 * an operation: the others fail it, naming the node and the operation.
 */
class CollectivesSizesTest {

  @Test
  void everyOpWithTwoNodes() {
    try (TestCluster cluster = TestCluster.start(2);
        Groups groups = Groups.create(cluster, 2, "two")) {
      EveryOp.check(groups);
    }
  }

  @Test
  void everyOpWithFourNodesThenAMemberLeavesMidOperation() {
    try (TestCluster cluster = TestCluster.start(4)) {
      Groups groups = Groups.create(cluster, 4, "four");
      EveryOp.check(groups);
      List<DeviceBuffer> data = new ArrayList<>();
      for (int rank = 0; rank < 4; rank++) {
        data.add(groups.buffer(rank, new byte[1 << 20]));
      }
      // The others wait in the operation for node 3, which never takes part and then leaves.
      List<Work> works = new ArrayList<>();
      for (int rank = 0; rank < 3; rank++) {
        works.add(
            groups
                .group(rank)
                .allReduce(
                    groups.stream(rank),
                    data.get(rank),
                    data.get(rank),
                    ElementType.INT32,
                    ReduceOp.SUM));
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
