package dev.openaccel.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.openaccel.runtime.trace.TraceEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The switch between the two all-reduce algorithms on three nodes: up to the group's small-limit an
 * all-reduce is one direct exchange (each member sends its input to each other member, as its trace
 * shows), above it the ring; both give {@link Reference}'s bits, also when a direct exchange is cut
 * into pieces that straddle the segments.
 */
class SmallAllReduceTest {
  private static TestCluster cluster;

  @BeforeAll
  static void start() {
    cluster = TestCluster.start(3);
  }

  @AfterAll
  static void stop() {
    cluster.close();
  }

  @Test
  void anAllReduceOfTheLimitIsOneStepToEachOtherMemberAndOneElementMoreTakesTheRing() {
    try (Groups groups = Groups.create(cluster, 3, "switch", 4000)) {
      List<TestProbe<TraceEvent>> probes = subscribe(groups);
      try {
        CollectivesTest.checkAllReduce(groups, ElementType.INT32, ReduceOp.SUM, 1000, 1);
        CollectivesTest.checkAllReduce(groups, ElementType.INT32, ReduceOp.SUM, 1001, 2);
        for (int rank = 0; rank < 3; rank++) {
          List<List<TraceEvent.CollectiveStep>> byOp = steps(probes.get(rank), 2);
          assertEquals(2, byOp.get(0).size(), "one piece to each other member from rank " + rank);
          for (TraceEvent.CollectiveStep step : byOp.get(0)) {
            assertEquals(0, step.step());
            assertEquals(4000, step.bytes());
          }
          assertEquals(
              List.of(0, 1, 2, 3),
              byOp.get(1).stream().map(TraceEvent.CollectiveStep::step).sorted().toList(),
              "the ring's 2(n-1) steps on rank " + rank);
        }
      } finally {
        for (int rank = 0; rank < 3; rank++) {
          groups.accelerator(rank).trace().unsubscribe(probes.get(rank).ref());
        }
      }
    }
  }

  @Test
  void aDirectAllReduceOfPiecesThatStraddleTheSegmentsIsTheReference() {
    // 1 MiB of limit: these are cut into 384 KiB pieces, and the three segments do not fall on
    // piece bounds, nor divide the counts evenly.
    try (Groups groups = Groups.create(cluster, 3, "pieces", 1 << 20)) {
      CollectivesTest.checkAllReduce(groups, ElementType.FLOAT32, ReduceOp.SUM, 200_001, 3);
      CollectivesTest.checkAllReduce(groups, ElementType.FLOAT64, ReduceOp.AVERAGE, 100_003, 4);
      CollectivesTest.checkAllReduce(groups, ElementType.INT64, ReduceOp.PRODUCT, 100_000, 5);
      CollectivesTest.checkAllReduce(groups, ElementType.INT32, ReduceOp.MIN, 262_145, 6);
    }
  }

  private static List<TestProbe<TraceEvent>> subscribe(Groups groups) {
    List<TestProbe<TraceEvent>> probes = new ArrayList<>();
    for (int rank = 0; rank < groups.size(); rank++) {
      probes.add(TestProbe.create(cluster.system(rank)));
      groups.accelerator(rank).trace().subscribe(probes.get(rank).ref());
    }
    return probes;
  }

  /**
   * The steps of all-reduces 0 to {@code ops - 1} of group "switch", by operation, collected until
   * the span of each has come (bounded).
   */
  private static List<List<TraceEvent.CollectiveStep>> steps(TestProbe<TraceEvent> probe, int ops) {
    long deadline = System.nanoTime() + TestCluster.WAIT.toNanos();
    List<List<TraceEvent.CollectiveStep>> steps = new ArrayList<>();
    for (int op = 0; op < ops; op++) {
      steps.add(new ArrayList<>());
    }
    for (int finished = 0; finished < ops; ) {
      long left = Math.max(1, deadline - System.nanoTime());
      TraceEvent event = probe.receiveMessage(Duration.ofNanos(left));
      if (event instanceof TraceEvent.CollectiveStep step && step.group().equals("switch")) {
        steps.get((int) step.number()).add(step);
      } else if (event instanceof TraceEvent.CollectiveFinished span
          && span.group().equals("switch")) {
        finished++;
      }
    }
    return steps;
  }
}
