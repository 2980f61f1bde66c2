package dev.openaccel.samples.pipeline;

import java.util.Random;
import java.util.function.IntConsumer;

/** Host-side matrix helpers: inputs, the plain reference multiply, and the comparison. */
public final class Matrices {
  private Matrices() {}

  /** An N x N row-major matrix of uniform values in [-1, 1), the same for the same seed. */
  public static float[] random(int size, long seed) {
    Random random = new Random(seed);
    float[] matrix = new float[size * size];
    for (int i = 0; i < matrix.length; i++) {
      matrix[i] = random.nextFloat() * 2 - 1;
    }
    return matrix;
  }

  /**
   * C = A x B, the textbook way on one thread: each element a dot product of a row of A and a
   * column of B, over k in ascending order. B is transposed first so that both walk memory in
   * order. {@code rowDone} hears each finished row, for progress.
   */
  public static float[] multiply(float[] a, float[] b, int size, IntConsumer rowDone) {
    float[] columns = transpose(b, size);
    float[] c = new float[size * size];
    for (int i = 0; i < size; i++) {
      for (int j = 0; j < size; j++) {
        float sum = 0;
        for (int k = 0; k < size; k++) {
          sum += a[i * size + k] * columns[j * size + k];
        }
        c[i * size + j] = sum;
      }
      rowDone.accept(i + 1);
    }
    return c;
  }

  private static float[] transpose(float[] matrix, int size) {
    float[] transposed = new float[size * size];
    for (int i = 0; i < size; i++) {
      for (int j = 0; j < size; j++) {
        transposed[j * size + i] = matrix[i * size + j];
      }
    }
    return transposed;
  }

  /** The largest absolute difference between two matrices of the same length. */
  public static double maxAbsDiff(float[] x, float[] y) {
    if (x.length != y.length) {
      throw new IllegalArgumentException("lengths differ: " + x.length + " and " + y.length);
    }
    double max = 0;
    for (int i = 0; i < x.length; i++) {
      double diff = Math.abs((double) x[i] - y[i]);
      if (Double.isNaN(diff)) {
        return Double.POSITIVE_INFINITY;
      }
      max = Math.max(max, diff);
    }
    return max;
  }

  /**
   * The largest difference accepted for N x N products of values in [-1, 1): float32 rounding of a
   * sum of N terms, with a wide margin for a different summation order.
   */
  public static double tolerance(int size) {
    return 1e-5 * size;
  }
}
