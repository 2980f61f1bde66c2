package dev.openaccel.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.trace.TraceEvent;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every collective of a group of three nodes against {@link Reference}, for every element type,
 * with sizes from one element to a few MiB, counts the member count does not divide, and work on
 * the same stream before and after.
 */
class CollectivesTest {
  private static TestCluster cluster;

  @BeforeAll
  static void start() {
    cluster = TestCluster.start(3);
  }

  @AfterAll
  static void stop() {
    cluster.close();
  }

  /** Runs an all-reduce of random inputs and checks every member against the reference. */
  static void checkAllReduce(Groups groups, ElementType type, ReduceOp op, int count, long seed) {
    List<byte[]> inputs = new ArrayList<>();
    List<DeviceBuffer> ins = new ArrayList<>();
    List<DeviceBuffer> outs = new ArrayList<>();
    for (int rank = 0; rank < groups.size(); rank++) {
      inputs.add(Reference.random(type, count, seed * 31 + rank));
      ins.add(groups.buffer(rank, inputs.get(rank)));
      outs.add(groups.empty(rank, (long) count * type.size()));
    }
    groups.onAll(
        rank ->
            groups
                .group(rank)
                .allReduce(groups.stream(rank), ins.get(rank), outs.get(rank), type, op));
    byte[] expected = groups.expectedAllReduce(inputs, type, op);
    for (int rank = 0; rank < groups.size(); rank++) {
      int r = rank;
      assertArrayEquals(
          expected,
          groups.read(rank, outs.get(rank)),
          () -> "allReduce " + type + " " + op + " x " + count + " on rank " + r);
    }
  }

  @Test
  void allReduceOfEveryTypeAndOpIsTheReferenceBitForBitOnEveryMemberDirectAndOnTheRing() {
    // The default small-limit exchanges these sizes directly; 0 sends them round the ring.
    for (long smallLimit : new long[] {-1, 0}) {
      try (Groups groups = Groups.create(cluster, 3, "all-reduce-" + smallLimit, smallLimit)) {
        long seed = 0;
        for (ElementType type : ElementType.values()) {
          for (ReduceOp op : ReduceOp.values()) {
            for (int count : new int[] {1, 2, 7, 1000}) {
              checkAllReduce(groups, type, op, count, seed++);
            }
          }
        }
      }
    }
  }

  @Test
  void allReduceOfSeveralMiBIsCutIntoPiecesAndStillTheReference() {
    try (Groups groups = Groups.create(cluster, 3, "all-reduce-large")) {
      checkAllReduce(groups, ElementType.FLOAT32, ReduceOp.SUM, 1_000_003, 1);
      checkAllReduce(groups, ElementType.INT64, ReduceOp.MAX, 300_001, 2);
    }
  }

  @Test
  void aGroupOfOneMemberGivesItsOwnInput() {
    try (Groups groups = Groups.create(cluster, 1, "alone")) {
      checkAllReduce(groups, ElementType.FLOAT64, ReduceOp.AVERAGE, 1001, 7);
      byte[] data = Reference.random(ElementType.INT32, 10, 3);
      DeviceBuffer in = groups.buffer(0, data);
      DeviceBuffer out = groups.empty(0, data.length);
      groups.onAll(rank -> groups.group(0).allGather(groups.stream(0), in, out, ElementType.INT32));
      assertArrayEquals(data, groups.read(0, out));
    }
  }

  @Test
  void broadcastFromEveryRootReachesEveryMember() {
    try (Groups groups = Groups.create(cluster, 3, "broadcast")) {
      for (ElementType type : ElementType.values()) {
        for (int count : new int[] {1, 100_001}) {
          for (int root = 0; root < 3; root++) {
            byte[] data = Reference.random(type, count, root);
            List<DeviceBuffer> buffers = new ArrayList<>();
            for (int rank = 0; rank < 3; rank++) {
              buffers.add(groups.buffer(rank, rank == root ? data : new byte[data.length]));
            }
            int from = root;
            groups.onAll(
                rank ->
                    groups
                        .group(rank)
                        .broadcast(groups.stream(rank), buffers.get(rank), type, from));
            for (int rank = 0; rank < 3; rank++) {
              assertArrayEquals(data, groups.read(rank, buffers.get(rank)), "rank " + rank);
            }
          }
        }
      }
    }
  }

  @Test
  void allGatherAndReduceScatterAreTheReference() {
    try (Groups groups = Groups.create(cluster, 3, "gather-scatter")) {
      for (ElementType type : ElementType.values()) {
        for (int count : new int[] {1, 33_333}) {
          List<byte[]> inputs = new ArrayList<>();
          List<DeviceBuffer> ins = new ArrayList<>();
          List<DeviceBuffer> gathered = new ArrayList<>();
          for (int rank = 0; rank < 3; rank++) {
            inputs.add(Reference.random(type, count, rank));
            ins.add(groups.buffer(rank, inputs.get(rank)));
            gathered.add(groups.empty(rank, 3L * count * type.size()));
          }
          groups.onAll(
              rank ->
                  groups
                      .group(rank)
                      .allGather(groups.stream(rank), ins.get(rank), gathered.get(rank), type));
          ByteBuffer all = ByteBuffer.allocate(3 * inputs.get(0).length);
          inputs.forEach(all::put);
          List<byte[]> wholes = new ArrayList<>();
          List<DeviceBuffer> scattered = new ArrayList<>();
          for (int rank = 0; rank < 3; rank++) {
            assertArrayEquals(all.array(), groups.read(rank, gathered.get(rank)), "rank " + rank);
            wholes.add(Reference.random(type, 3 * count, 10 + rank));
            scattered.add(groups.empty(rank, (long) count * type.size()));
          }
          List<DeviceBuffer> wholeBuffers = new ArrayList<>();
          for (int rank = 0; rank < 3; rank++) {
            wholeBuffers.add(groups.buffer(rank, wholes.get(rank)));
          }
          groups.onAll(
              rank ->
                  groups
                      .group(rank)
                      .reduceScatter(
                          groups.stream(rank),
                          wholeBuffers.get(rank),
                          scattered.get(rank),
                          type,
                          ReduceOp.SUM));
          for (int rank = 0; rank < 3; rank++) {
            assertArrayEquals(
                Reference.reduceScatter(wholes, type, ReduceOp.SUM, rank),
                groups.read(rank, scattered.get(rank)),
                "rank " + rank);
          }
        }
      }
    }
  }

  @Test
  void reduceWritesOnlyTheRootsOutput() {
    try (Groups groups = Groups.create(cluster, 3, "reduce")) {
      for (ElementType type : ElementType.values()) {
        for (int root = 0; root < 3; root++) {
          List<byte[]> inputs = new ArrayList<>();
          List<DeviceBuffer> ins = new ArrayList<>();
          List<DeviceBuffer> outs = new ArrayList<>();
          byte[] untouched = Reference.random(type, 1001, 99);
          for (int rank = 0; rank < 3; rank++) {
            inputs.add(Reference.random(type, 1001, root * 3 + rank));
            ins.add(groups.buffer(rank, inputs.get(rank)));
            outs.add(groups.buffer(rank, untouched));
          }
          int to = root;
          groups.onAll(
              rank ->
                  groups
                      .group(rank)
                      .reduce(
                          groups.stream(rank),
                          ins.get(rank),
                          outs.get(rank),
                          type,
                          ReduceOp.AVERAGE,
                          to));
          for (int rank = 0; rank < 3; rank++) {
            byte[] expected =
                rank == root ? Reference.reduce(inputs, type, ReduceOp.AVERAGE, root) : untouched;
            assertArrayEquals(expected, groups.read(rank, outs.get(rank)), "rank " + rank);
          }
        }
      }
    }
  }

  @Test
  void sendAndRecvBetweenEveryPairAndBarrierComplete() {
    try (Groups groups = Groups.create(cluster, 3, "p2p")) {
      for (int from = 0; from < 3; from++) {
        for (int to = 0; to < 3; to++) {
          if (from == to) {
            continue;
          }
          byte[] data = Reference.random(ElementType.INT64, 70_001, from * 3 + to);
          DeviceBuffer source = groups.buffer(from, data);
          DeviceBuffer target = groups.empty(to, data.length);
          Work sent = groups.group(from).send(groups.stream(from), source, ElementType.INT64, to);
          Work received = groups.group(to).recv(groups.stream(to), target, ElementType.INT64, from);
          assertTrue(sent.synchronize(TestCluster.WAIT));
          assertTrue(received.synchronize(TestCluster.WAIT));
          assertArrayEquals(data, groups.read(to, target));
        }
      }
      groups.onAll(rank -> groups.group(rank).barrier(groups.stream(rank)));
    }
  }

  @Test
  void kernelsBeforeAndAfterOnTheSameStreamSeeTheCollectiveInOrder() {
    try (Groups groups = Groups.create(cluster, 3, "stream-order")) {
      List<DeviceBuffer> data = new ArrayList<>();
      for (int rank = 0; rank < 3; rank++) {
        data.add(groups.empty(rank, 4000));
      }
      List<Work> works = new ArrayList<>();
      for (int rank = 0; rank < 3; rank++) {
        int value = rank + 1;
        groups.stream(rank).launch("fill", ctx -> fill(ctx.buffer(0), value), data.get(rank));
        works.add(groups.sumInPlace(rank, data.get(rank)));
        groups.stream(rank).launch("double", ctx -> times(ctx.buffer(0), 2), data.get(rank));
      }
      for (int rank = 0; rank < 3; rank++) {
        int[] expected = new int[1000];
        Arrays.fill(expected, 12);
        assertArrayEquals(expected, ints(groups.read(rank, data.get(rank))), "rank " + rank);
        assertTrue(works.get(rank).isDone());
      }
    }
  }

  @Test
  void anotherStreamThatBlocksOnTheWorkSeesTheResult() {
    try (Groups groups = Groups.create(cluster, 3, "block")) {
      List<DeviceBuffer> outs = new ArrayList<>();
      List<Work> works = new ArrayList<>();
      for (int rank = 0; rank < 3; rank++) {
        DeviceBuffer in = groups.buffer(rank, ByteBuffer.allocate(8).putLong(0, rank + 1).array());
        outs.add(groups.empty(rank, 8));
        works.add(
            groups
                .group(rank)
                .allReduce(
                    groups.stream(rank), in, outs.get(rank), ElementType.INT64, ReduceOp.MAX));
      }
      for (int rank = 0; rank < 3; rank++) {
        Stream other = groups.accelerator(rank).newStream(groups.group(rank).device().device());
        works.get(rank).block(other);
        ByteBuffer host = ByteBuffer.allocate(8);
        other.copyToHost(outs.get(rank), host);
        other.synchronize();
        assertEquals(3, host.getLong(0), "rank " + rank);
        other.close();
      }
    }
  }

  @Test
  void aThousandBackToBackAllReducesNeitherDriftNorLeaveMessagesBehind() {
    try (Groups groups = Groups.create(cluster, 3, "back-to-back")) {
      List<DeviceBuffer> data = new ArrayList<>();
      for (int rank = 0; rank < 3; rank++) {
        data.add(groups.buffer(rank, ByteBuffer.allocate(64).putInt(0, rank + 1).array()));
      }
      List<Work> last = new ArrayList<>();
      for (int i = 0; i < 1000; i++) {
        last.clear();
        for (int rank = 0; rank < 3; rank++) {
          last.add(groups.sumInPlace(rank, data.get(rank)));
        }
      }
      int expected = 6;
      for (int i = 1; i < 1000; i++) {
        expected *= 3;
      }
      for (int rank = 0; rank < 3; rank++) {
        assertTrue(last.get(rank).synchronize(TestCluster.WAIT));
        assertEquals(expected, ByteBuffer.wrap(groups.read(rank, data.get(rank))).getInt(0));
      }
      Groups.awaitNothingHeld(cluster, 3, "back-to-back");
    }
  }

  @Test
  void anAllReduceIsTracedAsItsSpanAndOneStepPerPieceEachMemberSent() {
    int count = 300_000; // 3 segments of 400,000 bytes: 2 pieces of at most 384 KiB each
    try (Groups groups = Groups.create(cluster, 3, "traced")) {
      List<DeviceBuffer> data = new ArrayList<>();
      for (int rank = 0; rank < 3; rank++) {
        data.add(groups.buffer(rank, Reference.random(ElementType.FLOAT32, count, rank)));
      }
      // #0 runs while nobody listens, so it is not traced; #1 is.
      groups.onAll(rank -> allReduce(groups, rank, data.get(rank)));
      List<TestProbe<TraceEvent>> probes = new ArrayList<>();
      for (int rank = 0; rank < 3; rank++) {
        probes.add(TestProbe.create(cluster.system(rank)));
        groups.accelerator(rank).trace().subscribe(probes.get(rank).ref());
      }
      try {
        groups.onAll(rank -> allReduce(groups, rank, data.get(rank)));
        for (int rank = 0; rank < 3; rank++) {
          checkTrace(groups, rank, probes.get(rank), count * 4L);
        }
      } finally {
        for (int rank = 0; rank < 3; rank++) {
          groups.accelerator(rank).trace().unsubscribe(probes.get(rank).ref());
        }
      }
    }
  }

  private static Work allReduce(Groups groups, int rank, DeviceBuffer data) {
    return groups
        .group(rank)
        .allReduce(groups.stream(rank), data, data, ElementType.FLOAT32, ReduceOp.SUM);
  }

  /**
   * The op span of all-reduce #1 on {@code rank} and its steps, published before it: each member
   * sends every segment but its own in the reduce-scatter (steps 0 and 1) and every segment but the
   * one it receives last in the all-gather (steps 2 and 3), 2 (n - 1) / n of the data.
   */
  private static void checkTrace(Groups groups, int rank, TestProbe<TraceEvent> probe, long size) {
    long deadline = System.nanoTime() + TestCluster.WAIT.toNanos();
    List<TraceEvent.CollectiveStep> steps = new ArrayList<>();
    TraceEvent.CollectiveFinished op = null;
    while (op == null) {
      long left = Math.max(1, deadline - System.nanoTime());
      TraceEvent event = probe.receiveMessage(Duration.ofNanos(left));
      if (event instanceof TraceEvent.CollectiveStep step && step.group().equals("traced")) {
        steps.add(step);
      } else if (event instanceof TraceEvent.CollectiveFinished finished
          && finished.group().equals("traced")) {
        op = finished;
      }
    }
    Stream stream = groups.stream(rank);
    String where = "rank " + rank;
    assertEquals(stream.device(), op.device(), where);
    assertEquals(stream.id(), op.streamId(), where);
    assertEquals("allReduce", op.operation(), where);
    assertEquals(1, op.number(), "the untraced operation #0 left no span");
    assertEquals(size, op.bytes(), where);
    assertFalse(op.failed(), where);
    Map<Integer, Long> bytesByStep = new TreeMap<>();
    for (TraceEvent.CollectiveStep step : steps) {
      assertEquals("allReduce", step.operation());
      assertEquals(1, step.number(), "the untraced operation left no step");
      assertEquals(stream.id(), step.streamId());
      assertTrue(op.startNanos() <= step.startNanos() && step.atNanos() <= op.atNanos(), "inside");
      bytesByStep.merge(step.step(), step.bytes(), Long::sum);
    }
    assertEquals(8, steps.size(), "4 steps of 2 pieces on rank " + rank);
    assertEquals(Map.of(0, size / 3, 1, size / 3, 2, size / 3, 3, size / 3), bytesByStep);
    assertEquals(
        2 * (3 - 1) * size / 3, steps.stream().mapToLong(TraceEvent.CollectiveStep::bytes).sum());
  }

  static void fill(ByteBuffer buffer, int value) {
    for (int i = 0; i + 4 <= buffer.limit(); i += 4) {
      buffer.putInt(i, value);
    }
  }

  static void times(ByteBuffer buffer, int factor) {
    for (int i = 0; i + 4 <= buffer.limit(); i += 4) {
      buffer.putInt(i, buffer.getInt(i) * factor);
    }
  }

  static int[] ints(byte[] bytes) {
    int[] values = new int[bytes.length / 4];
    ByteBuffer.wrap(bytes).asIntBuffer().get(values);
    return values;
  }
}
