// Register-tiled SGEMM, row-major: C[M][N] = alpha * A[M][K] * B[K][N] + beta * C[M][N].
// Each work-item keeps a block of C in registers: 8 rows x 16 columns (sgemm8x16, two float8 per
// row) or 8 x 8 (sgemm8x8, for N not a multiple of 16). Per k it loads one row segment of B and
// broadcasts eight values of A, so every value loaded feeds 8 or 16 multiply-adds.
// Global size: (N / 16 or N / 8, M / 8); M a multiple of 8, K free. Tuned for CPUs (PoCL).

// Built without TILE: the register kernels; with -DTILE=128 -DPER=8 or -DTILE=64 -DPER=4: the tiles.
#ifndef TILE

// Stores 8 results at c + off; C is read only when beta is not 0 (it may hold anything then).
#define STORE(acc, off) \
  vstore8(beta == 0.0f ? alpha * (acc) : alpha * (acc) + beta * vload8(0, c + (off)), 0, c + (off))

__kernel void sgemm8x16(int M, int N, int K, float alpha,
                       __global const float* restrict A,
                       __global const float* restrict B,
                       float beta, __global float* restrict C) {
  const int col = get_global_id(0) * 16;
  const int row = get_global_id(1) * 8;
  if (row >= M || col >= N) return;
  float8 l0 = 0, l1 = 0, l2 = 0, l3 = 0, l4 = 0, l5 = 0, l6 = 0, l7 = 0;
  float8 h0 = 0, h1 = 0, h2 = 0, h3 = 0, h4 = 0, h5 = 0, h6 = 0, h7 = 0;
  const __global float* a = A + row * K;
  const __global float* b = B + col;
  for (int k = 0; k < K; k++) {
    const float8 bl = vload8(0, b + k * N), bh = vload8(1, b + k * N);
    float8 x;
    x = (float8)(a[k]);          l0 = mad(x, bl, l0); h0 = mad(x, bh, h0);
    x = (float8)(a[K + k]);      l1 = mad(x, bl, l1); h1 = mad(x, bh, h1);
    x = (float8)(a[2 * K + k]);  l2 = mad(x, bl, l2); h2 = mad(x, bh, h2);
    x = (float8)(a[3 * K + k]);  l3 = mad(x, bl, l3); h3 = mad(x, bh, h3);
    x = (float8)(a[4 * K + k]);  l4 = mad(x, bl, l4); h4 = mad(x, bh, h4);
    x = (float8)(a[5 * K + k]);  l5 = mad(x, bl, l5); h5 = mad(x, bh, h5);
    x = (float8)(a[6 * K + k]);  l6 = mad(x, bl, l6); h6 = mad(x, bh, h6);
    x = (float8)(a[7 * K + k]);  l7 = mad(x, bl, l7); h7 = mad(x, bh, h7);
  }
  __global float* c = C + row * N + col;
  STORE(l0, 0); STORE(h0, 8);
  STORE(l1, N); STORE(h1, N + 8);
  STORE(l2, 2 * N); STORE(h2, 2 * N + 8);
  STORE(l3, 3 * N); STORE(h3, 3 * N + 8);
  STORE(l4, 4 * N); STORE(h4, 4 * N + 8);
  STORE(l5, 5 * N); STORE(h5, 5 * N + 8);
  STORE(l6, 6 * N); STORE(h6, 6 * N + 8);
  STORE(l7, 7 * N); STORE(h7, 7 * N + 8);
}

__kernel void sgemm8x8(int M, int N, int K, float alpha,
                       __global const float* restrict A,
                       __global const float* restrict B,
                       float beta, __global float* restrict C) {
  const int col = get_global_id(0) * 8;
  const int row = get_global_id(1) * 8;
  if (row >= M || col >= N) return;
  float8 l0 = 0, l1 = 0, l2 = 0, l3 = 0, l4 = 0, l5 = 0, l6 = 0, l7 = 0;
  const __global float* a = A + row * K;
  const __global float* b = B + col;
  for (int k = 0; k < K; k++) {
    const float8 bl = vload8(0, b + k * N);
    float8 x;
    x = (float8)(a[k]);          l0 = mad(x, bl, l0);
    x = (float8)(a[K + k]);      l1 = mad(x, bl, l1);
    x = (float8)(a[2 * K + k]);  l2 = mad(x, bl, l2);
    x = (float8)(a[3 * K + k]);  l3 = mad(x, bl, l3);
    x = (float8)(a[4 * K + k]);  l4 = mad(x, bl, l4);
    x = (float8)(a[5 * K + k]);  l5 = mad(x, bl, l5);
    x = (float8)(a[6 * K + k]);  l6 = mad(x, bl, l6);
    x = (float8)(a[7 * K + k]);  l7 = mad(x, bl, l7);
  }
  __global float* c = C + row * N + col;
  STORE(l0, 0);
  STORE(l1, N);
  STORE(l2, 2 * N);
  STORE(l3, 3 * N);
  STORE(l4, 4 * N);
  STORE(l5, 5 * N);
  STORE(l6, 6 * N);
  STORE(l7, 7 * N);
}

#else

// For GPUs: a work-group of 16 x 16 work-items computes a TILE x TILE tile of C (128 or 64). Per
// step of 16 in K it stages a TILE x 16 slice of A (transposed) and a 16 x TILE slice of B in local
// memory; each work-item keeps a PER x PER block of C in registers, its rows and columns 16 apart,
// so that neighbouring work-items read neighbouring columns of B and write neighbouring columns of
// C (coalesced) and read the same values of A (broadcast).
// Global size: (N / PER, M / PER), local size (16, 16); M and N multiples of TILE, K of 16.
#define STEP 16
#define SIDE 16

__kernel __attribute__((reqd_work_group_size(SIDE, SIDE, 1)))
void sgemmTiles(int M, int N, int K, float alpha,
              __global const float* restrict A,
              __global const float* restrict B,
              float beta, __global float* restrict C) {
  __local float As[STEP][TILE + 1]; // As[k][row]; the pad keeps the transposing stores apart
  __local float Bs[STEP][TILE];     // Bs[k][col]
  const int tx = get_local_id(0), ty = get_local_id(1);
  const int id = ty * SIDE + tx;
  const int row0 = get_group_id(1) * TILE, col0 = get_group_id(0) * TILE;
  float acc[PER][PER];
  for (int i = 0; i < PER; i++)
    for (int j = 0; j < PER; j++) acc[i][j] = 0.0f;
  for (int k0 = 0; k0 < K; k0 += STEP) {
    for (int e = id; e < TILE * STEP; e += SIDE * SIDE) {
      As[e % STEP][e / STEP] = A[(row0 + e / STEP) * K + k0 + e % STEP];
      Bs[e / TILE][e % TILE] = B[(k0 + e / TILE) * N + col0 + e % TILE];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < STEP; k++) {
      float b[PER];
      for (int j = 0; j < PER; j++) b[j] = Bs[k][tx + j * SIDE];
      for (int i = 0; i < PER; i++) {
        const float a = As[k][ty + i * SIDE];
        for (int j = 0; j < PER; j++) acc[i][j] = mad(a, b[j], acc[i][j]);
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (int i = 0; i < PER; i++) {
    __global float* c = C + (row0 + ty + i * SIDE) * N + col0 + tx;
    for (int j = 0; j < PER; j++) {
      const float v = alpha * acc[i][j];
      c[j * SIDE] = beta == 0.0f ? v : v + beta * c[j * SIDE];
    }
  }
}

#endif
