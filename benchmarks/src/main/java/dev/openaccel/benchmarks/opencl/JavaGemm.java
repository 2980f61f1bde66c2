package dev.openaccel.benchmarks.opencl;

import java.util.Arrays;

/** A blocked, single-thread Java matrix multiply: the CPU baseline the device kernel must beat. */
final class JavaGemm {
  private static final int BLOCK = 64;

  private JavaGemm() {}

  /** {@code c = a * b} for row-major {@code n x n} matrices. */
  static void multiply(int n, float[] a, float[] b, float[] c) {
    Arrays.fill(c, 0f);
    for (int i0 = 0; i0 < n; i0 += BLOCK) {
      for (int k0 = 0; k0 < n; k0 += BLOCK) {
        for (int j0 = 0; j0 < n; j0 += BLOCK) {
          int iEnd = Math.min(i0 + BLOCK, n);
          int kEnd = Math.min(k0 + BLOCK, n);
          int jEnd = Math.min(j0 + BLOCK, n);
          for (int i = i0; i < iEnd; i++) {
            for (int k = k0; k < kEnd; k++) {
              float aik = a[i * n + k];
              int bRow = k * n;
              int cRow = i * n;
              for (int j = j0; j < jEnd; j++) {
                c[cRow + j] += aik * b[bRow + j];
              }
            }
          }
        }
      }
    }
  }
}
