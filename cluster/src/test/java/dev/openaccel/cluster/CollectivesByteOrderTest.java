package dev.openaccel.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.DeviceBuffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A member whose buffers hold little-endian elements ({@link ProcessGroup#inOrder}) in a group of
 * big-endian ones: it gets the same values as the others, in its own order, from an all-reduce on
 * the ring and by the direct exchange, a broadcast it roots, an all-gather, a reduce-scatter, a
 * reduce to it and a receive; the others see its values right.
 */
class CollectivesByteOrderTest {
  private static final int LITTLE = 1; // the little-endian member's rank
  private static TestCluster cluster;

  @BeforeAll
  static void start() {
    cluster = TestCluster.start(3);
  }

  @AfterAll
  static void stop() {
    cluster.close();
  }

  /** {@code bigEndian}'s elements of {@code type}, each with its bytes reversed. */
  static byte[] reversed(byte[] bigEndian, ElementType type) {
    ByteBuffer in = ByteBuffer.wrap(bigEndian);
    ByteBuffer out = ByteBuffer.allocate(bigEndian.length).order(ByteOrder.LITTLE_ENDIAN);
    for (int at = 0; at < bigEndian.length; at += type.size()) {
      if (type.size() == 4) {
        out.putInt(at, in.getInt(at));
      } else {
        out.putLong(at, in.getLong(at));
      }
    }
    return out.array();
  }

  private static byte[] inOwnOrder(int rank, byte[] bigEndian, ElementType type) {
    return rank == LITTLE ? reversed(bigEndian, type) : bigEndian;
  }

  private static ProcessGroup handle(Groups groups, int rank) {
    ProcessGroup group = groups.group(rank);
    return rank == LITTLE ? group.inOrder(ByteOrder.LITTLE_ENDIAN) : group;
  }

  @Test
  void aLittleEndianMemberGetsTheSameAllReduceInItsOwnOrder() {
    for (long smallLimit : new long[] {4 << 20, 0}) { // directly (inputs up to 800 kB), the ring
      try (Groups groups = Groups.create(cluster, 3, "order-" + smallLimit, smallLimit)) {
        assertSame(ByteOrder.LITTLE_ENDIAN, handle(groups, LITTLE).order());
        assertSame(ByteOrder.BIG_ENDIAN, groups.group(LITTLE).order());
        for (ElementType type : ElementType.values()) {
          List<byte[]> inputs = new ArrayList<>();
          List<DeviceBuffer> buffers = new ArrayList<>();
          for (int rank = 0; rank < 3; rank++) {
            inputs.add(Reference.random(type, 100_003, rank + 7L * type.ordinal()));
            buffers.add(groups.buffer(rank, inOwnOrder(rank, inputs.get(rank), type)));
          }
          groups.onAll(
              rank ->
                  handle(groups, rank)
                      .allReduce(
                          groups.stream(rank),
                          buffers.get(rank),
                          buffers.get(rank),
                          type,
                          ReduceOp.AVERAGE));
          byte[] expected = groups.expectedAllReduce(inputs, type, ReduceOp.AVERAGE);
          for (int rank = 0; rank < 3; rank++) {
            assertArrayEquals(
                inOwnOrder(rank, expected, type),
                groups.read(rank, buffers.get(rank)),
                type + " on rank " + rank);
          }
        }
      }
    }
  }

  @Test
  void aLittleEndianRootBroadcastsAndGathersRight() {
    try (Groups groups = Groups.create(cluster, 3, "order-moves")) {
      ElementType type = ElementType.INT64;
      byte[] root = Reference.random(type, 5_001, 11);
      List<DeviceBuffer> cast = new ArrayList<>();
      for (int rank = 0; rank < 3; rank++) {
        byte[] start = rank == LITTLE ? root : new byte[root.length];
        cast.add(groups.buffer(rank, inOwnOrder(rank, start, type)));
      }
      groups.onAll(
          rank ->
              handle(groups, rank).broadcast(groups.stream(rank), cast.get(rank), type, LITTLE));
      for (int rank = 0; rank < 3; rank++) {
        assertArrayEquals(inOwnOrder(rank, root, type), groups.read(rank, cast.get(rank)));
      }

      List<byte[]> blocks = new ArrayList<>();
      List<DeviceBuffer> outs = new ArrayList<>();
      List<DeviceBuffer> ins = new ArrayList<>();
      ByteBuffer all = ByteBuffer.allocate(3 * 16 * type.size());
      for (int rank = 0; rank < 3; rank++) {
        blocks.add(Reference.random(type, 16, 20 + rank));
        all.put(blocks.get(rank));
        ins.add(groups.buffer(rank, inOwnOrder(rank, blocks.get(rank), type)));
        outs.add(groups.empty(rank, all.capacity()));
      }
      groups.onAll(
          rank ->
              handle(groups, rank)
                  .allGather(groups.stream(rank), ins.get(rank), outs.get(rank), type));
      for (int rank = 0; rank < 3; rank++) {
        assertArrayEquals(inOwnOrder(rank, all.array(), type), groups.read(rank, outs.get(rank)));
      }
    }
  }

  @Test
  void aLittleEndianMemberReduceScattersReducesSendsAndReceivesInItsOwnOrder() {
    try (Groups groups = Groups.create(cluster, 3, "order-others")) {
      ElementType type = ElementType.FLOAT64;
      int block = 4_001;
      List<byte[]> inputs = new ArrayList<>();
      List<DeviceBuffer> ins = new ArrayList<>();
      List<DeviceBuffer> outs = new ArrayList<>();
      for (int rank = 0; rank < 3; rank++) {
        inputs.add(Reference.random(type, 3 * block, 30 + rank));
        ins.add(groups.buffer(rank, inOwnOrder(rank, inputs.get(rank), type)));
        outs.add(groups.empty(rank, (long) block * type.size()));
      }
      groups.onAll(
          rank ->
              handle(groups, rank)
                  .reduceScatter(
                      groups.stream(rank), ins.get(rank), outs.get(rank), type, ReduceOp.SUM));
      for (int rank = 0; rank < 3; rank++) {
        byte[] expected = Reference.reduceScatter(inputs, type, ReduceOp.SUM, rank);
        assertArrayEquals(inOwnOrder(rank, expected, type), groups.read(rank, outs.get(rank)));
      }

      List<DeviceBuffer> results = new ArrayList<>();
      for (int rank = 0; rank < 3; rank++) {
        results.add(groups.empty(rank, 3L * block * type.size()));
      }
      groups.onAll(
          rank ->
              handle(groups, rank)
                  .reduce(
                      groups.stream(rank),
                      ins.get(rank),
                      results.get(rank),
                      type,
                      ReduceOp.MAX,
                      LITTLE));
      byte[] max = Reference.reduce(inputs, type, ReduceOp.MAX, LITTLE);
      assertArrayEquals(inOwnOrder(LITTLE, max, type), groups.read(LITTLE, results.get(LITTLE)));

      // The little-endian member sends its input to rank 0 and receives rank 2's.
      List<Work> moves =
          List.of(
              handle(groups, LITTLE).send(groups.stream(LITTLE), ins.get(LITTLE), type, 0),
              handle(groups, 0).recv(groups.stream(0), results.get(0), type, LITTLE),
              handle(groups, 2).send(groups.stream(2), ins.get(2), type, LITTLE),
              handle(groups, LITTLE).recv(groups.stream(LITTLE), results.get(LITTLE), type, 2));
      for (Work move : moves) {
        assertTrue(move.synchronize(TestCluster.WAIT), move::toString);
      }
      assertArrayEquals(inputs.get(LITTLE), groups.read(0, results.get(0)));
      assertArrayEquals(
          inOwnOrder(LITTLE, inputs.get(2), type), groups.read(LITTLE, results.get(LITTLE)));
    }
  }
}
