package dev.openaccel.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.openaccel.runtime.DeviceBuffer;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/** Every collective of a group once per element type, against {@link Reference}. */
final class EveryOp {
  private EveryOp() {}

  /**
   * Every all-reduce of every element type and reduce op, at small sizes, against the reference.
   */
  static void allReduces(Groups groups) {
    long seed = 100;
    for (ElementType type : ElementType.values()) {
      for (ReduceOp op : ReduceOp.values()) {
        for (int count : new int[] {1, 5, 1001}) {
          CollectivesTest.checkAllReduce(groups, type, op, count, seed++);
        }
      }
    }
  }

  static void check(Groups groups) {
    int n = groups.size();
    allReduces(groups);
    long seed = 200;
    for (ElementType type : ElementType.values()) {
      int count = 333;
      List<byte[]> inputs = new ArrayList<>();
      List<DeviceBuffer> ins = new ArrayList<>();
      List<DeviceBuffer> outs = new ArrayList<>();
      List<DeviceBuffer> scattered = new ArrayList<>();
      for (int rank = 0; rank < n; rank++) {
        inputs.add(Reference.random(type, n * count, seed++));
        ins.add(groups.buffer(rank, inputs.get(rank)));
        outs.add(groups.empty(rank, (long) n * n * count * type.size()));
        scattered.add(groups.empty(rank, (long) count * type.size()));
      }
      groups.onAll(
          rank ->
              groups
                  .group(rank)
                  .allGather(groups.stream(rank), ins.get(rank), outs.get(rank), type));
      ByteBuffer all = ByteBuffer.allocate(n * inputs.get(0).length);
      inputs.forEach(all::put);
      groups.onAll(
          rank ->
              groups
                  .group(rank)
                  .reduceScatter(
                      groups.stream(rank),
                      ins.get(rank),
                      scattered.get(rank),
                      type,
                      ReduceOp.PRODUCT));
      for (int rank = 0; rank < n; rank++) {
        assertArrayEquals(all.array(), groups.read(rank, outs.get(rank)), "allGather " + type);
        assertArrayEquals(
            Reference.reduceScatter(inputs, type, ReduceOp.PRODUCT, rank),
            groups.read(rank, scattered.get(rank)),
            "reduceScatter " + type);
      }
      List<DeviceBuffer> reduced = new ArrayList<>();
      for (int rank = 0; rank < n; rank++) {
        reduced.add(groups.empty(rank, (long) n * count * type.size()));
      }
      groups.onAll(
          rank ->
              groups
                  .group(rank)
                  .reduce(
                      groups.stream(rank),
                      ins.get(rank),
                      reduced.get(rank),
                      type,
                      ReduceOp.MIN,
                      1));
      assertArrayEquals(
          Reference.reduce(inputs, type, ReduceOp.MIN, 1),
          groups.read(1, reduced.get(1)),
          "reduce");
      groups.onAll(
          rank -> groups.group(rank).broadcast(groups.stream(rank), ins.get(rank), type, n - 1));
      for (int rank = 0; rank < n; rank++) {
        assertArrayEquals(inputs.get(n - 1), groups.read(rank, ins.get(rank)), "broadcast " + type);
      }
    }
    groups.onAll(rank -> groups.group(rank).barrier(groups.stream(rank)));
  }
}
