package dev.openaccel.cluster;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The hierarchical all-reduce's order across three nodes, where it shows in floating-point bits:
 * with two nodes each segment is {@code y1 op y0} or {@code y0 op y1}, which commutativity makes
 * equal whatever the numbering, while three partial results are added in the documented order only
 * ({@code ((y[k+1] op y[k+2]) op y[k])}, nodes numbered as their first members appear). Checked
 * against {@link Reference} on every member, on the ring and by the direct exchange.
 */
class HierarchicalOrderTest {
  private static TestCluster cluster;

  @BeforeAll
  static void start() {
    cluster = TestCluster.start(3, "openaccel.openreg.device-count = 2");
  }

  @AfterAll
  static void stop() {
    cluster.close();
  }

  @Test
  void threeNodesReduceInTheDocumentedOrderOnTheRingAndDirectly() {
    // Node 0 holds ranks 0 and 3, node 2 ranks 2 and 4: first members 0, 1, 2 in node order.
    List<RemoteDevice> members =
        CollectivesLocalTest.devices(cluster, 0, 0, 1, 0, 2, 0, 0, 1, 2, 1);
    for (long smallLimit : new long[] {0, -1}) {
      String name = "three-nodes-" + smallLimit;
      try (Groups groups = Groups.create(cluster, members, name, smallLimit)) {
        CollectivesTest.checkAllReduce(groups, ElementType.FLOAT32, ReduceOp.SUM, 30_001, 1);
        CollectivesTest.checkAllReduce(groups, ElementType.FLOAT64, ReduceOp.AVERAGE, 20_003, 2);
      }
      Groups.awaitNothingHeld(cluster, 3, name);
    }
  }
}
