package dev.openaccel.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.DeviceExecutionException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Misuse and failure of process groups with several members on one node (two nodes of three
 * devices, join and op timeouts of 2 s): refused member lists and open names, a member of a node
 * that never joins or never calls, members of one node that disagree, destroy of one member of a
 * node, and a node of two members that leaves in the middle of an all-reduce.
 */
class CollectivesLocalFailureTest {
  private static final String TIMED_OUT =
      ": timed out after PT2S (openaccel.cluster.collectives.op-timeout) waiting for ";

  private static TestCluster cluster;

  @BeforeAll
  static void start() {
    cluster =
        TestCluster.start(
            2,
            """
            openaccel.openreg.device-count = 3
            openaccel.cluster.collectives.join-timeout = 2s
            openaccel.cluster.collectives.op-timeout = 2s
            """);
  }

  @AfterAll
  static void stop() {
    cluster.close();
  }

  private static List<RemoteDevice> devices(int... nodeIndex) {
    return CollectivesLocalTest.devices(cluster, nodeIndex);
  }

  @Test
  void createRefusesADeviceNamedTwiceANonMemberAnotherNodesDeviceAndAnOpenOne() {
    Collectives collectives = cluster.node(0).collectives();
    RemoteDevice first = cluster.device(0, 0);
    List<RemoteDevice> twice = devices(0, 0, 0, 1, 0, 0);
    assertMessage(
        IllegalArgumentException.class,
        () -> collectives.createAsync("g", twice, first),
        "process group 'g': device " + first + " is named twice: " + twice);
    List<RemoteDevice> pair = devices(0, 0, 0, 1);
    assertMessage(
        IllegalArgumentException.class,
        () -> collectives.createAsync("g", pair, cluster.device(0, 2)),
        cluster.device(0, 2) + " is not a member of " + pair);
    List<RemoteDevice> across = devices(0, 0, 1, 0);
    assertMessage(
        IllegalArgumentException.class,
        () -> collectives.createAsync("g", across, cluster.device(1, 0)),
        cluster.device(1, 0) + " is a device of another node than " + cluster.node(0).selfNode());
    try (Groups open = Groups.create(cluster, pair, "open", -1)) {
      assertMessage(
          IllegalStateException.class,
          () -> collectives.createAsync("open", pair, first),
          "group 'open' (the same tag) is open here for ");
      List<RemoteDevice> others = devices(0, 2, 1, 0);
      assertMessage(
          IllegalStateException.class,
          () -> collectives.createAsync("open", others, cluster.device(0, 2)),
          "with members " + pair);
    }
    try (Groups again = Groups.create(cluster, devices(0, 2, 1, 0), "open", -1)) {
      again.onAll(rank -> again.group(rank).barrier(again.stream(rank)));
    }
  }

  @Test
  void aMemberOfANodeThatNeverJoinsFailsTheOthersNamingIt() throws Exception {
    List<RemoteDevice> members = devices(0, 0, 0, 1, 1, 0);
    List<CompletableFuture<ProcessGroup>> created = new ArrayList<>();
    for (int rank : new int[] {0, 2}) {
      created.add(
          cluster
              .node(rank == 0 ? 0 : 1)
              .collectives()
              .createAsync("absent", members, members.get(rank), 1000) // not the default limit
              .toCompletableFuture());
    }
    for (CompletableFuture<ProcessGroup> creation : created) {
      String message = Groups.failure(creation, DeviceExecutionException.class);
      assertTrue(message.contains("no join within PT2S"), message);
      assertTrue(message.endsWith("from [rank 1 (" + members.get(1) + ")]"), message);
    }
    // The joins the failed creations left for rank 1 are dropped, or superseded by the new ones:
    // the retry, with the default small-limit, is created on every member and runs.
    try (Groups groups = Groups.create(cluster, members, "absent", -1)) {
      groups.onAll(rank -> groups.group(rank).barrier(groups.stream(rank)));
    }
  }

  @Test
  void aMemberListThatDiffersOnAnotherNodeFailsEveryCreationNamingBoth() {
    List<RemoteDevice> straight = devices(0, 0, 0, 1, 1, 0);
    List<RemoteDevice> swapped = devices(0, 1, 0, 0, 1, 0);
    List<CompletableFuture<ProcessGroup>> created = new ArrayList<>();
    for (int rank = 0; rank < 3; rank++) {
      // Node 1's member has the list with node 0's two devices swapped: other ranks, same joins.
      List<RemoteDevice> members = rank == 2 ? swapped : straight;
      created.add(
          cluster
              .node(rank == 2 ? 1 : 0)
              .collectives()
              .createAsync("lists", members, straight.get(rank))
              .toCompletableFuture());
    }
    for (CompletableFuture<ProcessGroup> creation : created) {
      String message = Groups.failure(creation, IllegalArgumentException.class);
      assertTrue(message.contains("members disagree"), message);
      assertTrue(
          message.contains(straight.toString()) && message.contains(swapped.toString()), message);
    }
    Groups.awaitNothingHeld(cluster, 2, "lists");
  }

  @Test
  void membersOfOneNodeThatCallDifferentReduceOpsAllFailNamingBoth() {
    try (Groups groups = Groups.create(cluster, devices(0, 0, 0, 1, 1, 0), "disagree", -1)) {
      List<DeviceBuffer> data = groups.ints(1);
      List<Work> works = new ArrayList<>();
      for (int rank = 0; rank < 3; rank++) {
        ReduceOp op = rank == 1 ? ReduceOp.MAX : ReduceOp.SUM;
        works.add(groups.allReduceInPlace(rank, data.get(rank), ElementType.INT32, op));
      }
      for (Work work : works) {
        String message = Groups.failure(work);
        assertTrue(message.contains("members disagree"), message);
        assertTrue(message.contains("allReduce(int32 x 10, sum)"), message);
        assertTrue(message.contains("allReduce(int32 x 10, max)"), message);
        assertTrue(message.contains("rank 1 (" + cluster.device(0, 1) + ")"), message);
      }
      assertTheNextAllReduceRuns(groups);
      Groups.awaitNothingHeld(cluster, 2, "disagree");
    }
  }

  @Test
  void aMemberOfANodeThatNeverCallsMakesTheOthersTimeOutNamingIt() {
    List<RemoteDevice> members = devices(0, 0, 0, 1, 1, 0);
    try (Groups groups = Groups.create(cluster, members, "unsent", -1)) {
      List<DeviceBuffer> data = groups.ints(1);
      IntFunction<Work> sum = rank -> groups.sumInPlace(rank, data.get(rank));
      List<Work> started = List.of(sum.apply(0), sum.apply(2));
      for (Work work : started) {
        String message = Groups.failure(work);
        assertTrue(message.startsWith("allReduce #0 of group 'unsent' on rank "), message);
        assertTrue(message.endsWith(TIMED_OUT + "rank 1 (" + members.get(1) + ")"), message);
      }
      String late = Groups.failure(sum.apply(1));
      assertTrue(late.startsWith("allReduce #0 of group 'unsent' on rank 1: rank "), late);
      assertTrue(late.contains(TIMED_OUT + "rank 1 ("), late);
      assertTheNextAllReduceRuns(groups);
    }
  }

  @Test
  void destroyingOneMemberOfANodeKeepsTheMessagesWaitingForTheOther() {
    Groups groups = Groups.create(cluster, devices(0, 0, 0, 1, 1, 0), "destroy-one", -1);
    List<DeviceBuffer> data = groups.ints(5);
    Work sent = groups.group(2).send(groups.stream(2), data.get(2), ElementType.INT32, 0);
    awaitHeld(cluster.node(0).collectives(), "destroy-one"); // rank 2's descriptor, for rank 0
    groups.group(1).destroy(); // drops what waits for rank 1 on node 0, not what waits for rank 0
    DeviceBuffer target = groups.empty(0, 40);
    Work received = groups.group(0).recv(groups.stream(0), target, ElementType.INT32, 2);
    assertTrue(sent.synchronize(TestCluster.WAIT));
    assertTrue(received.synchronize(TestCluster.WAIT));
    assertEquals(5, ByteBuffer.wrap(groups.read(0, target)).getInt(36));
    groups.close();
    Groups.awaitNothingHeld(cluster, 2, "destroy-one");
  }

  @Test
  void destroyWhileAnAllReduceWaitsLetsItFinishAndFreesTheNameOnEveryDevice() {
    List<RemoteDevice> members = devices(0, 0, 0, 1, 1, 0);
    Groups groups = Groups.create(cluster, members, "destroy-pending", -1);
    List<DeviceBuffer> data = groups.ints(1);
    CountDownLatch gate = new CountDownLatch(1);
    groups.stream(0).launch("gate", () -> awaitGate(gate));
    List<Work> works = new ArrayList<>();
    for (int rank = 0; rank < 3; rank++) {
      works.add(groups.sumInPlace(rank, data.get(rank)));
    }
    groups.group(0).destroy();
    groups.group(1).destroy();
    gate.countDown();
    for (int rank = 0; rank < 3; rank++) {
      assertTrue(works.get(rank).synchronize(TestCluster.WAIT));
      assertEquals(3, ByteBuffer.wrap(groups.read(rank, data.get(rank))).getInt(0));
    }
    groups.close();
    Groups.awaitNothingHeld(cluster, 2, "destroy-pending");
    try (Groups again = Groups.create(cluster, members, "destroy-pending", -1)) {
      again.onAll(rank -> again.group(rank).barrier(again.stream(rank)));
    }
  }

  @Test
  void aNodeOfTwoMembersThatLeavesFailsTheOtherNodesMembersNamingIt() {
    try (TestCluster two = TestCluster.start(2)) {
      List<RemoteDevice> members = CollectivesLocalTest.devices(two, 0, 0, 0, 1, 1, 0, 1, 1);
      Groups groups = Groups.create(two, members, "leaves", -1);
      List<DeviceBuffer> data = new ArrayList<>();
      for (int rank = 0; rank < 4; rank++) {
        data.add(groups.buffer(rank, new byte[1 << 20]));
      }
      // Node 0's members wait in the operation for node 1's, which never take part; it leaves.
      List<Work> works =
          List.of(groups.sumInPlace(0, data.get(0)), groups.sumInPlace(1, data.get(1)));
      String leaving = two.node(1).selfNode();
      two.terminate(1);
      for (Work work : works) {
        String message = Groups.failure(work);
        assertTrue(message.startsWith("allReduce #0 of group 'leaves' on rank "), message);
        assertTrue(message.contains("node " + leaving + " left the cluster"), message);
      }
    }
  }

  /** Waits, bounded, until {@code collectives} holds a message of group {@code name}. */
  private static void awaitHeld(Collectives collectives, String name) {
    long deadline = System.nanoTime() + TestCluster.WAIT.toNanos();
    while (collectives.heldMessages(name) == 0) {
      assertTrue(System.nanoTime() < deadline, "nothing of " + name + " arrived");
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
    }
  }

  private static void awaitGate(CountDownLatch gate) {
    try {
      assertTrue(gate.await(TestCluster.WAIT.toSeconds(), TimeUnit.SECONDS));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Every member's stream reports the failed operation once; then the group is aligned again: an
   * all-reduce of fresh buffers completes with the sum.
   */
  private static void assertTheNextAllReduceRuns(Groups groups) {
    for (int rank = 0; rank < groups.size(); rank++) {
      assertThrows(DeviceExecutionException.class, groups.stream(rank)::synchronize);
    }
    List<DeviceBuffer> data = groups.ints(2);
    groups.onAll(rank -> groups.sumInPlace(rank, data.get(rank)));
    for (int rank = 0; rank < groups.size(); rank++) {
      assertEquals(6, ByteBuffer.wrap(groups.read(rank, data.get(rank))).getInt(36));
    }
  }

  private static void assertMessage(Class<? extends Throwable> type, Runnable call, String part) {
    Throwable e = assertThrows(type, call::run);
    assertTrue(
        e.getMessage().contains(part), () -> "'" + e.getMessage() + "' lacks '" + part + "'");
  }
}
