package dev.openaccel.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.EngineSpec;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Misuse of process groups on three nodes: errors at the call, members that disagree at the same
 * position (every member fails, naming both sides), creation that a member never joins.
 */
class CollectivesMisuseTest {
  private static TestCluster cluster;

  @BeforeAll
  static void start() {
    cluster = TestCluster.start(3, "openaccel.cluster.collectives.join-timeout = 2s");
  }

  @AfterAll
  static void stop() {
    cluster.close();
  }

  /** Each member's call, whose work must fail; the failures' messages. */
  private static List<String> failures(Groups groups, IntFunction<Work> call) {
    List<Work> works = new ArrayList<>();
    for (int rank = 0; rank < groups.size(); rank++) {
      works.add(call.apply(rank));
    }
    List<String> messages = new ArrayList<>();
    for (Work work : works) {
      DeviceExecutionException e =
          assertThrows(DeviceExecutionException.class, () -> work.synchronize(TestCluster.WAIT));
      messages.add(e.getMessage());
    }
    return messages;
  }

  @Test
  void membersThatCallDifferentOpsTypesCountsOrReduceOpsAllFailNamingBothSides() {
    try (Groups groups = Groups.create(cluster, 3, "disagree")) {
      List<DeviceBuffer> small = new ArrayList<>();
      List<DeviceBuffer> large = new ArrayList<>();
      for (int rank = 0; rank < 3; rank++) {
        small.add(groups.empty(rank, 40));
        large.add(groups.empty(rank, 120));
      }
      IntFunction<Work> sum =
          rank -> groups.allReduceInPlace(rank, small.get(rank), ElementType.FLOAT32, ReduceOp.SUM);
      List<IntFunction<Work>> others =
          List.of(
              rank ->
                  groups
                      .group(rank)
                      .allGather(
                          groups.stream(rank),
                          small.get(rank),
                          large.get(rank),
                          ElementType.FLOAT32),
              rank -> groups.sumInPlace(rank, small.get(rank)),
              rank ->
                  groups.allReduceInPlace(rank, large.get(rank), ElementType.FLOAT32, ReduceOp.SUM),
              rank ->
                  groups.allReduceInPlace(
                      rank, small.get(rank), ElementType.FLOAT32, ReduceOp.MAX));
      List<String> theirs =
          List.of(
              "allGather(float32 x 10 each)",
              "allReduce(int32 x 10, sum)",
              "allReduce(float32 x 30, sum)",
              "allReduce(float32 x 10, max)");
      for (int i = 0; i < others.size(); i++) {
        IntFunction<Work> other = others.get(i);
        String expected = theirs.get(i);
        List<String> messages =
            failures(groups, rank -> rank == 2 ? other.apply(rank) : sum.apply(rank));
        for (String message : messages) {
          assertTrue(message.contains("members disagree"), message);
          assertTrue(message.contains("allReduce(float32 x 10, sum)"), message);
          assertTrue(message.contains(expected), message);
          assertTrue(message.contains("rank 2 (" + cluster.device(2, 0) + ")"), message);
        }
        for (int rank = 0; rank < 3; rank++) {
          Stream stream = groups.stream(rank);
          assertThrows(
              DeviceExecutionException.class, stream::synchronize, "the stream reports it");
        }
      }
      // Every member counted the failed calls: the next collective is one operation again.
      groups.onAll(sum);
      Groups.awaitNothingHeld(cluster, 3, "disagree");
    }
  }

  @Test
  void anAbortFromAMemberFailsTheOperationThereAndOnTheMembersThatComeLater() {
    try (Groups groups = Groups.create(cluster, 3, "aborted")) {
      List<DeviceBuffer> data = new ArrayList<>();
      for (int rank = 0; rank < 3; rank++) {
        data.add(groups.empty(rank, 400));
      }
      IntFunction<Work> allReduce =
          rank -> groups.allReduceInPlace(rank, data.get(rank), ElementType.FLOAT32, ReduceOp.SUM);
      Work first = allReduce.apply(0);
      // Rank 1 says it failed this operation, as a member whose own part failed would.
      new GroupChannel("aborted", Groups.members(cluster, 3), 1, cluster.node(1).bulk())
          .send(0, GroupChannel.message(GroupChannel.ABORT, 0, 0, 0), "boom".getBytes());
      DeviceExecutionException e =
          assertThrows(DeviceExecutionException.class, () -> first.synchronize(TestCluster.WAIT));
      assertEquals(
          "allReduce #0 of group 'aborted' on rank 0: rank 1 ("
              + cluster.device(1, 0)
              + ") failed: boom",
          e.getMessage());
      // Rank 0 passed its failure on: the others fail the operation when they reach it.
      List<Work> later = List.of(allReduce.apply(1), allReduce.apply(2));
      for (Work work : later) {
        DeviceExecutionException passedOn =
            assertThrows(DeviceExecutionException.class, () -> work.synchronize(TestCluster.WAIT));
        assertTrue(passedOn.getMessage().contains("failed: boom"), passedOn.getMessage());
      }
      for (int rank = 0; rank < 3; rank++) {
        assertThrows(DeviceExecutionException.class, groups.stream(rank)::synchronize);
      }
      groups.onAll(allReduce); // the next operation runs on all
    }
  }

  @Test
  void aCallThatCannotEnqueueFailsThereAndOnThePeersAndKeepsTheOrder() {
    try (Groups groups = Groups.create(cluster, 3, "not-enqueued")) {
      List<DeviceBuffer> data = new ArrayList<>();
      for (int rank = 0; rank < 3; rank++) {
        data.add(groups.empty(rank, 40));
      }
      Stream closed = groups.accelerator(0).newStream(groups.group(0).device().device());
      closed.close();
      assertMessage(
          IllegalStateException.class,
          () ->
              groups
                  .group(0)
                  .allReduce(closed, data.get(0), data.get(0), ElementType.INT32, ReduceOp.SUM),
          "accepts no more work");
      for (int rank = 1; rank < 3; rank++) {
        Work work = groups.sumInPlace(rank, data.get(rank));
        DeviceExecutionException e =
            assertThrows(DeviceExecutionException.class, () -> work.synchronize(TestCluster.WAIT));
        assertTrue(
            e.getMessage().contains("rank 0 (" + cluster.device(0, 0) + ") failed: allReduce #0"),
            e.getMessage());
        assertThrows(DeviceExecutionException.class, groups.stream(rank)::synchronize);
      }
      groups.onAll(rank -> groups.group(rank).barrier(groups.stream(rank)));
    }
  }

  @Test
  void badBuffersStreamsAndRanksThrowAtTheCall() {
    try (Groups groups = Groups.create(cluster, 3, "bad-calls")) {
      ProcessGroup group = groups.group(0);
      Stream stream = groups.stream(0);
      DeviceBuffer eight = groups.empty(0, 8);
      DeviceBuffer four = groups.empty(0, 4);
      DeviceBuffer odd = groups.empty(0, 6);
      RemoteDevice other = cluster.device(0, 1);
      DeviceBuffer elsewhere = groups.accelerator(0).allocate(other.device(), 8);
      Stream otherStream = groups.accelerator(0).newStream(other.device());
      DeviceBuffer closed = groups.accelerator(0).allocate(group.device().device(), 8);
      closed.close();
      ElementType f32 = ElementType.FLOAT32;
      assertMessage(
          IllegalArgumentException.class,
          () -> group.allReduce(stream, eight, four, f32, ReduceOp.SUM),
          "output buffer must be 8 bytes (the input's size), got 4 bytes");
      assertMessage(
          IllegalArgumentException.class,
          () -> group.allGather(stream, eight, eight, f32),
          "output buffer must be 24 bytes (members x input), got 8 bytes");
      assertMessage(
          IllegalArgumentException.class,
          () -> group.allReduce(stream, odd, odd, f32, ReduceOp.SUM),
          "6 bytes is not a whole number of float32 elements");
      assertMessage(
          IllegalArgumentException.class,
          () -> group.allReduce(stream, elsewhere, elsewhere, f32, ReduceOp.SUM),
          "input buffer is on device " + other.device());
      assertMessage(
          IllegalArgumentException.class,
          () -> group.allReduce(otherStream, eight, eight, f32, ReduceOp.SUM),
          "is on device " + other.device());
      assertMessage(
          IllegalStateException.class,
          () -> group.allReduce(stream, closed, closed, f32, ReduceOp.SUM),
          "input buffer is closed");
      assertMessage(
          IllegalArgumentException.class,
          () -> group.broadcast(stream, eight, f32, 3),
          "root 3 is not a rank of this group of 3 members");
      assertMessage(
          IllegalArgumentException.class,
          () -> group.send(stream, eight, f32, 0),
          "peer 0 is not a rank of this group of 3 members other than this member's own rank 0");
      assertEquals(0, stream.pendingWork(), "nothing was enqueued");
      elsewhere.close();
      otherStream.close();
    }
  }

  @Test
  void aDestroyedGroupRefusesWorkAndItsNameCanBeCreatedAgain() {
    Groups groups = Groups.create(cluster, 3, "destroyed");
    ProcessGroup group = groups.group(1);
    Stream stream = groups.stream(1);
    groups.close();
    assertMessage(
        IllegalStateException.class,
        () -> group.barrier(stream),
        "process group 'destroyed' was destroyed on this member");
    try (Groups again = Groups.create(cluster, 3, "destroyed")) {
      again.onAll(rank -> again.group(rank).barrier(again.stream(rank)));
    }
  }

  @Test
  void destroyLetsTheOperationsEnqueuedBeforeFinish() throws Exception {
    Groups groups = Groups.create(cluster, 3, "destroy-pending");
    List<DeviceBuffer> data = new ArrayList<>();
    for (int rank = 0; rank < 3; rank++) {
      data.add(groups.buffer(rank, ByteBuffer.allocate(40).putInt(0, rank).array()));
    }
    CountDownLatch gate = new CountDownLatch(1);
    groups.stream(0).launch("gate", () -> awaitGate(gate));
    List<Work> works = new ArrayList<>();
    for (int rank = 0; rank < 3; rank++) {
      works.add(groups.sumInPlace(rank, data.get(rank)));
    }
    groups.group(0).destroy(); // while its all-reduce waits behind the gate
    gate.countDown();
    for (int rank = 0; rank < 3; rank++) {
      assertTrue(works.get(rank).synchronize(TestCluster.WAIT));
      assertEquals(3, ByteBuffer.wrap(groups.read(rank, data.get(rank))).getInt(0));
    }
    groups.close();
    Groups.awaitNothingHeld(cluster, 3, "destroy-pending");
  }

  private static void awaitGate(CountDownLatch gate) {
    try {
      assertTrue(gate.await(TestCluster.WAIT.toSeconds(), TimeUnit.SECONDS));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Test
  void createRefusesNonMembersOtherNodesRepeatedDevicesAndOpenNames() {
    Collectives collectives = cluster.node(0).collectives();
    List<RemoteDevice> members = Groups.members(cluster, 2);
    assertMessage(
        IllegalArgumentException.class,
        () -> collectives.createAsync("g", members, cluster.device(0, 1)),
        cluster.device(0, 1) + " is not a member of " + members);
    assertMessage(
        IllegalArgumentException.class,
        () -> collectives.createAsync("g", members, cluster.device(1, 0)),
        cluster.device(1, 0) + " is a device of another node than " + cluster.node(0).selfNode());
    assertMessage(
        IllegalArgumentException.class,
        () ->
            collectives.createAsync(
                "g",
                List.of(cluster.device(0, 0), cluster.device(1, 0), cluster.device(0, 0)),
                cluster.device(0, 0)),
        "device " + cluster.device(0, 0) + " is named twice");
    try (Groups open = Groups.create(cluster, 2, "open")) {
      assertMessage(
          IllegalStateException.class,
          () -> collectives.createAsync("open", members, cluster.device(0, 0)),
          "group 'open' (the same tag) is open here");
    }
  }

  @Test
  void devicesOfOneTypeNeverShareAJoinCode() {
    Set<Long> codes = new HashSet<>();
    DeviceType type = cluster.device(0, 0).device().type();
    for (int index = 0; index < EngineSpec.MAX_DEVICE_COUNT; index++) {
      assertTrue(codes.add(GroupChannel.joinCode(Device.of(type, index))), "index " + index);
    }
  }

  @Test
  void createRefusesTwoDevicesOfANodeWhoseJoinCodesClash() {
    Map<Long, DeviceType> seen = new HashMap<>();
    DeviceType first = null;
    DeviceType second = null;
    for (int k = 0; second == null; k++) { // 15-bit hashes: a clash within a few hundred names
      assertTrue(k < 100_000, "no two of 100,000 type names share a join code");
      DeviceType type = DeviceType.of("t" + k);
      DeviceType earlier = seen.putIfAbsent(GroupChannel.joinCode(Device.of(type, 0)), type);
      if (earlier != null) {
        first = earlier;
        second = type;
      }
    }
    String node = cluster.node(0).selfNode();
    RemoteDevice a = new RemoteDevice(node, Device.of(first, 0));
    RemoteDevice b = new RemoteDevice(node, Device.of(second, 0));
    assertMessage(
        IllegalArgumentException.class,
        () -> cluster.node(0).collectives().createAsync("g", List.of(a, b), a),
        "devices " + a + " and " + b + " of one node cannot both be members");
  }

  @Test
  void aMemberThatNeverJoinsFailsEveryCreationNamingIt() throws Exception {
    List<RemoteDevice> members = Groups.members(cluster, 3);
    List<CompletableFuture<ProcessGroup>> created = new ArrayList<>();
    for (int node = 0; node < 2; node++) {
      created.add(
          cluster
              .node(node)
              .collectives()
              .createAsync("absent", members, members.get(node))
              .toCompletableFuture());
    }
    for (CompletableFuture<ProcessGroup> creation : created) {
      String message = Groups.failure(creation, DeviceExecutionException.class);
      assertTrue(message.contains("no join within PT2S"), message);
      assertTrue(message.contains("[rank 2 (" + members.get(2) + ")]"), message);
    }
  }

  @Test
  void membersThatDisagreeOnTheMemberListFailNamingBoth() {
    List<RemoteDevice> straight = Groups.members(cluster, 3);
    List<RemoteDevice> swapped = List.of(straight.get(0), straight.get(2), straight.get(1));
    List<CompletableFuture<ProcessGroup>> created = new ArrayList<>();
    for (int node = 0; node < 3; node++) {
      List<RemoteDevice> members = node == 1 ? swapped : straight;
      created.add(
          cluster
              .node(node)
              .collectives()
              .createAsync("lists", members, straight.get(node))
              .toCompletableFuture());
    }
    for (String message : failedCreations(created)) {
      assertTrue(
          message.contains(straight.toString()) && message.contains(swapped.toString()), message);
    }
    Groups.awaitNothingHeld(cluster, 3, "lists"); // compared once all joins arrived
  }

  @Test
  void membersWithDifferentSmallLimitsFailTheCreationNamingBoth() {
    List<RemoteDevice> members = Groups.members(cluster, 3);
    List<CompletableFuture<ProcessGroup>> created = new ArrayList<>();
    for (int node = 0; node < 3; node++) {
      // Their all-reduces would run different algorithms and misread each other's messages.
      created.add(
          cluster
              .node(node)
              .collectives()
              .createAsync("limits", members, members.get(node), node == 2 ? 0 : 4096)
              .toCompletableFuture());
    }
    for (String message : failedCreations(created)) {
      assertTrue(
          message.contains("small-limit 4096") && message.contains("small-limit 0"), message);
    }
    Groups.awaitNothingHeld(cluster, 3, "limits");
  }

  /** The messages of creations that must all fail as members that disagree. */
  private static List<String> failedCreations(List<CompletableFuture<ProcessGroup>> created) {
    List<String> messages = new ArrayList<>();
    for (CompletableFuture<ProcessGroup> creation : created) {
      String message = Groups.failure(creation, IllegalArgumentException.class);
      assertTrue(message.contains("members disagree"), message);
      messages.add(message);
    }
    return messages;
  }

  private static void assertMessage(Class<? extends Throwable> type, Runnable call, String part) {
    Throwable e = assertThrows(type, call::run);
    assertTrue(
        e.getMessage().contains(part), () -> "'" + e.getMessage() + "' lacks '" + part + "'");
  }
}
