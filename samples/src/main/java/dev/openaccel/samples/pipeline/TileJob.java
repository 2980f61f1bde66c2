package dev.openaccel.samples.pipeline;

/**
 * One output tile, C[row, col] = sum over k of A[row, k] x B[k, col], and where it runs.
 *
 * @param row the tile row
 * @param col the tile column
 * @param device the index of the device that computes it
 * @param lane the compute stream of that device
 */
record TileJob(int row, int col, int device, int lane) {

  /** The kernel name of step {@code k}, as it shows in the timeline. */
  String kernelName(int k) {
    return "gemm C[" + row + "," + col + "] k=" + k;
  }
}
