package dev.openaccel.cluster;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Plain-Java results of the collectives, element by element, in the reduction order the README
 * documents: segment k of an all-reduce (and block k of a reduce-scatter) is {@code ((x[k+1] op
 * x[k+2]) op ...) op x[k]}, a reduce to a root {@code ((x[root+1] op ...) op x[root])}; the
 * all-reduce of a group with several members on one node in its hierarchical order. The
 * data-parallel training sample's single-process run uses {@link #allReduce} too.
 */
public final class Reference {
  private Reference() {}

  /** {@code count} random elements of {@code type}, from {@code seed}. */
  static byte[] random(ElementType type, int count, long seed) {
    Random random = new Random(seed);
    ByteBuffer out = ByteBuffer.allocate(count * type.size());
    for (int i = 0; i < count; i++) {
      switch (type) {
        case FLOAT32 -> out.putFloat((float) random.nextGaussian());
        case FLOAT64 -> out.putDouble(random.nextGaussian());
        case INT32 -> out.putInt(random.nextInt(2001) - 1000);
        case INT64 -> out.putLong(random.nextLong() >> 20);
      }
    }
    return out.array();
  }

  /** All-reduce of {@code inputs} (one per rank). */
  public static byte[] allReduce(List<byte[]> inputs, ElementType type, ReduceOp op) {
    int n = inputs.size();
    int count = inputs.get(0).length / type.size();
    ByteBuffer out = ByteBuffer.allocate(inputs.get(0).length);
    for (int e = 0; e < count; e++) {
      int segment = 0;
      while ((long) (segment + 1) * count / n <= e) {
        segment++;
      }
      put(out, type, e, reduceFrom(inputs, type, op, e, segment + 1));
    }
    return out.array();
  }

  /**
   * All-reduce of {@code inputs} (one per rank) whose members are on {@code nodes} (by rank): the
   * flat order above when every node holds one member, else the hierarchical one. Each node's
   * inputs are reduced first, in rank order ({@code y[j] = (x[a0] op x[a1]) op ...}), the nodes
   * numbered as their first member appears; then the flat order over the nodes' {@code y}; an
   * average is that sum divided once by the member count.
   */
  static byte[] allReduce(List<byte[]> inputs, List<String> nodes, ElementType type, ReduceOp op) {
    Map<String, List<Integer>> byNode = new LinkedHashMap<>();
    for (int rank = 0; rank < nodes.size(); rank++) {
      byNode.computeIfAbsent(nodes.get(rank), node -> new ArrayList<>()).add(rank);
    }
    if (byNode.size() == inputs.size()) {
      return allReduce(inputs, type, op);
    }
    int count = inputs.get(0).length / type.size();
    List<byte[]> perNode = new ArrayList<>();
    for (List<Integer> ranks : byNode.values()) {
      ByteBuffer y = ByteBuffer.allocate(inputs.get(0).length);
      for (int e = 0; e < count; e++) {
        Number acc = get(inputs.get(ranks.get(0)), type, e);
        for (int i = 1; i < ranks.size(); i++) {
          acc = apply(type, op, acc, get(inputs.get(ranks.get(i)), type, e));
        }
        put(y, type, e, acc);
      }
      perNode.add(y.array());
    }
    byte[] across = allReduce(perNode, type, op == ReduceOp.AVERAGE ? ReduceOp.SUM : op);
    if (op == ReduceOp.AVERAGE) {
      ByteBuffer out = ByteBuffer.wrap(across);
      for (int e = 0; e < count; e++) {
        put(out, type, e, divide(type, get(across, type, e), inputs.size()));
      }
    }
    return across;
  }

  /** Block {@code rank} of a reduce-scatter of {@code inputs}. */
  static byte[] reduceScatter(List<byte[]> inputs, ElementType type, ReduceOp op, int rank) {
    int n = inputs.size();
    int block = inputs.get(0).length / n;
    ByteBuffer out = ByteBuffer.allocate(block);
    for (int e = 0; e < block / type.size(); e++) {
      int element = rank * block / type.size() + e;
      put(out, type, e, reduceFrom(inputs, type, op, element, rank + 1));
    }
    return out.array();
  }

  /** A reduce of {@code inputs} to {@code root}. */
  static byte[] reduce(List<byte[]> inputs, ElementType type, ReduceOp op, int root) {
    ByteBuffer out = ByteBuffer.allocate(inputs.get(0).length);
    for (int e = 0; e < inputs.get(0).length / type.size(); e++) {
      put(out, type, e, reduceFrom(inputs, type, op, e, root + 1));
    }
    return out.array();
  }

  /** Element {@code e} reduced over the ranks from {@code first}, round the ring. */
  private static Number reduceFrom(
      List<byte[]> inputs, ElementType type, ReduceOp op, int e, int first) {
    int n = inputs.size();
    Number acc = get(inputs.get(first % n), type, e);
    for (int i = 1; i < n; i++) {
      acc = apply(type, op, acc, get(inputs.get((first + i) % n), type, e));
    }
    return op == ReduceOp.AVERAGE ? divide(type, acc, n) : acc;
  }

  private static Number divide(ElementType type, Number acc, int n) {
    return switch (type) {
      case FLOAT32 -> acc.floatValue() / n;
      case FLOAT64 -> acc.doubleValue() / n;
      case INT32 -> acc.intValue() / n;
      case INT64 -> acc.longValue() / n;
    };
  }

  private static Number apply(ElementType type, ReduceOp op, Number a, Number b) {
    return switch (type) {
      case FLOAT32 -> {
        float x = a.floatValue();
        float y = b.floatValue();
        yield switch (op) {
          case SUM, AVERAGE -> x + y;
          case PRODUCT -> x * y;
          case MIN -> Math.min(x, y);
          case MAX -> Math.max(x, y);
        };
      }
      case FLOAT64 -> {
        double x = a.doubleValue();
        double y = b.doubleValue();
        yield switch (op) {
          case SUM, AVERAGE -> x + y;
          case PRODUCT -> x * y;
          case MIN -> Math.min(x, y);
          case MAX -> Math.max(x, y);
        };
      }
      case INT32 -> {
        int x = a.intValue();
        int y = b.intValue();
        yield switch (op) {
          case SUM, AVERAGE -> x + y;
          case PRODUCT -> x * y;
          case MIN -> Math.min(x, y);
          case MAX -> Math.max(x, y);
        };
      }
      case INT64 -> {
        long x = a.longValue();
        long y = b.longValue();
        yield switch (op) {
          case SUM, AVERAGE -> x + y;
          case PRODUCT -> x * y;
          case MIN -> Math.min(x, y);
          case MAX -> Math.max(x, y);
        };
      }
    };
  }

  private static Number get(byte[] bytes, ElementType type, int e) {
    ByteBuffer in = ByteBuffer.wrap(bytes);
    return switch (type) {
      case FLOAT32 -> in.getFloat(e * 4);
      case FLOAT64 -> in.getDouble(e * 8);
      case INT32 -> in.getInt(e * 4);
      case INT64 -> in.getLong(e * 8);
    };
  }

  private static void put(ByteBuffer out, ElementType type, int e, Number value) {
    switch (type) {
      case FLOAT32 -> out.putFloat(e * 4, value.floatValue());
      case FLOAT64 -> out.putDouble(e * 8, value.doubleValue());
      case INT32 -> out.putInt(e * 4, value.intValue());
      case INT64 -> out.putLong(e * 8, value.longValue());
    }
  }
}
