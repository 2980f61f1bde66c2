package dev.openaccel.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.testkit.StreamHold;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The operation timeout ({@code openaccel.cluster.collectives.op-timeout}, 2 s here) on three
 * nodes: a member that never calls an operation, or whose stream never gets to it, makes the
 * members that started it fail it naming exactly that member; the late member fails it too once it
 * gets there (their aborts wait for it), so the next operation runs on all.
 */
class CollectivesTimeoutTest {
  private static final String TIMED_OUT =
      ": timed out after PT2S (openaccel.cluster.collectives.op-timeout) waiting for ";

  private static TestCluster cluster;

  @BeforeAll
  static void start() {
    cluster = TestCluster.start(3, "openaccel.cluster.collectives.op-timeout = 2s");
  }

  @AfterAll
  static void stop() {
    cluster.close();
  }

  @Test
  void aMemberThatNeverCallsTheOperationMakesTheOthersTimeOutNamingIt() {
    try (Groups groups = Groups.create(cluster, 3, "absent")) {
      IntFunction<Work> allReduce = sumOf(groups, groups.ints(1));
      List<Work> started = List.of(allReduce.apply(0), allReduce.apply(1));
      for (int rank = 0; rank < 2; rank++) {
        String message = Groups.failure(started.get(rank));
        assertTrue(
            message.startsWith("allReduce #0 of group 'absent' on rank " + rank + ": "), message);
        assertTrue(message.endsWith(TIMED_OUT + "rank 2 (" + cluster.device(2, 0) + ")"), message);
        assertThrows(DeviceExecutionException.class, groups.stream(rank)::synchronize);
      }
      // The late member counts the operation too: the others' aborts fail it at once.
      String late = Groups.failure(allReduce.apply(2));
      assertTrue(late.startsWith("allReduce #0 of group 'absent' on rank 2: rank "), late);
      assertTrue(late.contains(TIMED_OUT + "rank 2 ("), late);
      assertThrows(DeviceExecutionException.class, groups.stream(2)::synchronize);
      assertTheNextAllReduceRuns(groups);
    }
  }

  @Test
  void aMemberWhoseStreamIsHeldMakesTheOthersTimeOutAndRunsTheNextOnceReleased() {
    try (Groups groups = Groups.create(cluster, 3, "held")) {
      IntFunction<Work> allReduce = sumOf(groups, groups.ints(1));
      StreamHold hold = StreamHold.on(groups.stream(2));
      List<Work> works = List.of(allReduce.apply(0), allReduce.apply(1), allReduce.apply(2));
      for (int rank = 0; rank < 2; rank++) {
        String message = Groups.failure(works.get(rank));
        assertTrue(message.endsWith(TIMED_OUT + "rank 2 (" + cluster.device(2, 0) + ")"), message);
      }
      assertFalse(works.get(2).isDone(), "the held member has not started it, so has no timer");
      hold.release();
      String late = Groups.failure(works.get(2));
      assertTrue(late.startsWith("allReduce #0 of group 'held' on rank 2: rank "), late);
      assertTrue(late.contains(TIMED_OUT + "rank 2 ("), late);
      for (int rank = 0; rank < 3; rank++) {
        assertThrows(DeviceExecutionException.class, groups.stream(rank)::synchronize);
      }
      assertTheNextAllReduceRuns(groups);
    }
  }

  @Test
  void aSendWhosePeerNeverReceivesTimesOutNamingThePeer() {
    try (Groups groups = Groups.create(cluster, 3, "unreceived")) {
      List<DeviceBuffer> data = groups.ints(7);
      Work send = groups.group(0).send(groups.stream(0), data.get(0), ElementType.INT32, 1);
      String message = Groups.failure(send);
      assertEquals(
          "send #0 to rank 1 of group 'unreceived' on rank 0"
              + TIMED_OUT
              + "rank 1 ("
              + cluster.device(1, 0)
              + ")",
          message);
      Work late = groups.group(1).recv(groups.stream(1), data.get(1), ElementType.INT32, 0);
      assertTrue(Groups.failure(late).contains("failed: " + message), "the abort names the sender");
      for (int rank = 0; rank < 2; rank++) {
        assertThrows(DeviceExecutionException.class, groups.stream(rank)::synchronize);
      }
      // Both ends counted transfer #0: #1 arrives whole.
      DeviceBuffer target = groups.empty(1, 40);
      Work sent = groups.group(0).send(groups.stream(0), data.get(0), ElementType.INT32, 1);
      Work received = groups.group(1).recv(groups.stream(1), target, ElementType.INT32, 0);
      assertTrue(sent.synchronize(TestCluster.WAIT));
      assertTrue(received.synchronize(TestCluster.WAIT));
      assertEquals(7, ByteBuffer.wrap(groups.read(1, target)).getInt(36));
    }
  }

  private static IntFunction<Work> sumOf(Groups groups, List<DeviceBuffer> data) {
    return rank -> groups.sumInPlace(rank, data.get(rank));
  }

  /** The group is aligned again: an all-reduce of fresh buffers completes with the sum. */
  private static void assertTheNextAllReduceRuns(Groups groups) {
    List<DeviceBuffer> data = groups.ints(2);
    groups.onAll(sumOf(groups, data));
    for (int rank = 0; rank < groups.size(); rank++) {
      assertEquals(6, ByteBuffer.wrap(groups.read(rank, data.get(rank))).getInt(36));
    }
  }
}
