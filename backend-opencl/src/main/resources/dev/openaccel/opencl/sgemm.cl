// Register-tiled SGEMM, row-major: C[M][N] = alpha * A[M][K] * B[K][N] + beta * C[M][N].
// Each work-item computes an 8 x 8 block of C in registers; work-groups of 16 x 4 work-items.
// Global size: (N / 8, M / 8). M and N must be multiples of 8; K is free.
__kernel void sgemm(int M, int N, int K, float alpha,
                    __global const float* restrict A,
                    __global const float* restrict B,
                    float beta, __global float* restrict C) {
  const int col = get_global_id(0) * 8;
  const int row = get_global_id(1) * 8;
  if (row >= M || col >= N) return;
  float8 acc0 = 0, acc1 = 0, acc2 = 0, acc3 = 0, acc4 = 0, acc5 = 0, acc6 = 0, acc7 = 0;
  const __global float* a = A + row * K;
  for (int k = 0; k < K; k++) {
    const float8 b = vload8(0, B + k * N + col);
    acc0 = mad((float8)(a[k]), b, acc0);
    acc1 = mad((float8)(a[K + k]), b, acc1);
    acc2 = mad((float8)(a[2 * K + k]), b, acc2);
    acc3 = mad((float8)(a[3 * K + k]), b, acc3);
    acc4 = mad((float8)(a[4 * K + k]), b, acc4);
    acc5 = mad((float8)(a[5 * K + k]), b, acc5);
    acc6 = mad((float8)(a[6 * K + k]), b, acc6);
    acc7 = mad((float8)(a[7 * K + k]), b, acc7);
  }
  __global float* c = C + row * N + col;
  if (beta == 0.0f) {
    vstore8(alpha * acc0, 0, c);
    vstore8(alpha * acc1, 0, c + N);
    vstore8(alpha * acc2, 0, c + 2 * N);
    vstore8(alpha * acc3, 0, c + 3 * N);
    vstore8(alpha * acc4, 0, c + 4 * N);
    vstore8(alpha * acc5, 0, c + 5 * N);
    vstore8(alpha * acc6, 0, c + 6 * N);
    vstore8(alpha * acc7, 0, c + 7 * N);
  } else {
    vstore8(alpha * acc0 + beta * vload8(0, c), 0, c);
    vstore8(alpha * acc1 + beta * vload8(0, c + N), 0, c + N);
    vstore8(alpha * acc2 + beta * vload8(0, c + 2 * N), 0, c + 2 * N);
    vstore8(alpha * acc3 + beta * vload8(0, c + 3 * N), 0, c + 3 * N);
    vstore8(alpha * acc4 + beta * vload8(0, c + 4 * N), 0, c + 4 * N);
    vstore8(alpha * acc5 + beta * vload8(0, c + 5 * N), 0, c + 5 * N);
    vstore8(alpha * acc6 + beta * vload8(0, c + 6 * N), 0, c + 6 * N);
    vstore8(alpha * acc7 + beta * vload8(0, c + 7 * N), 0, c + 7 * N);
  }
}
