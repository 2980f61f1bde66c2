package dev.openaccel.cluster;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;

/**
 * The element arithmetic of the collectives, on host arrays in {@link ElementType}'s byte order.
 * Internal; stateless.
 */
final class Reduction {
  private Reduction() {}

  /**
   * {@code acc[i] = acc[i] (op) local[from + i]} for the {@code acc.length} bytes of {@code acc}:
   * the partial result that arrived is the left operand, this member's own value the right one,
   * which fixes the order of the reduction (see {@link Ring}).
   */
  static void combine(ElementType type, ReduceOp op, byte[] acc, byte[] local, int from) {
    ByteBuffer left = ByteBuffer.wrap(acc);
    ByteBuffer right = ByteBuffer.wrap(local, from, acc.length).slice();
    switch (type) {
      case FLOAT32 -> floats(op, left.asFloatBuffer(), right.asFloatBuffer());
      case FLOAT64 -> doubles(op, left.asDoubleBuffer(), right.asDoubleBuffer());
      case INT32 -> ints(op, left.asIntBuffer(), right.asIntBuffer());
      case INT64 -> longs(op, left.asLongBuffer(), right.asLongBuffer());
    }
  }

  /** Divides every element of {@code values} by {@code members}: the end of an average. */
  static void divide(ElementType type, byte[] values, int members) {
    ByteBuffer all = ByteBuffer.wrap(values);
    switch (type) {
      case FLOAT32 -> {
        FloatBuffer v = all.asFloatBuffer();
        for (int i = 0; i < v.limit(); i++) {
          v.put(i, v.get(i) / members);
        }
      }
      case FLOAT64 -> {
        DoubleBuffer v = all.asDoubleBuffer();
        for (int i = 0; i < v.limit(); i++) {
          v.put(i, v.get(i) / members);
        }
      }
      case INT32 -> {
        IntBuffer v = all.asIntBuffer();
        for (int i = 0; i < v.limit(); i++) {
          v.put(i, v.get(i) / members);
        }
      }
      case INT64 -> {
        LongBuffer v = all.asLongBuffer();
        for (int i = 0; i < v.limit(); i++) {
          v.put(i, v.get(i) / members);
        }
      }
    }
  }

  private static void floats(ReduceOp op, FloatBuffer acc, FloatBuffer local) {
    for (int i = 0; i < acc.limit(); i++) {
      float a = acc.get(i);
      float b = local.get(i);
      acc.put(
          i,
          switch (op) {
            case SUM, AVERAGE -> a + b;
            case PRODUCT -> a * b;
            case MIN -> Math.min(a, b);
            case MAX -> Math.max(a, b);
          });
    }
  }

  private static void doubles(ReduceOp op, DoubleBuffer acc, DoubleBuffer local) {
    for (int i = 0; i < acc.limit(); i++) {
      double a = acc.get(i);
      double b = local.get(i);
      acc.put(
          i,
          switch (op) {
            case SUM, AVERAGE -> a + b;
            case PRODUCT -> a * b;
            case MIN -> Math.min(a, b);
            case MAX -> Math.max(a, b);
          });
    }
  }

  private static void ints(ReduceOp op, IntBuffer acc, IntBuffer local) {
    for (int i = 0; i < acc.limit(); i++) {
      int a = acc.get(i);
      int b = local.get(i);
      acc.put(
          i,
          switch (op) {
            case SUM, AVERAGE -> a + b;
            case PRODUCT -> a * b;
            case MIN -> Math.min(a, b);
            case MAX -> Math.max(a, b);
          });
    }
  }

  private static void longs(ReduceOp op, LongBuffer acc, LongBuffer local) {
    for (int i = 0; i < acc.limit(); i++) {
      long a = acc.get(i);
      long b = local.get(i);
      acc.put(
          i,
          switch (op) {
            case SUM, AVERAGE -> a + b;
            case PRODUCT -> a * b;
            case MIN -> Math.min(a, b);
            case MAX -> Math.max(a, b);
          });
    }
  }
}
