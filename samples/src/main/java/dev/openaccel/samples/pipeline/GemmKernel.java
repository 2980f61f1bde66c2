package dev.openaccel.samples.pipeline;

import dev.openaccel.runtime.Kernel;
import dev.openaccel.runtime.KernelContext;
import java.nio.FloatBuffer;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The device code: C (+)= A x B on T x T float32 tiles. Launched with three buffers, A's tile, B's
 * tile and C's tile; the first step of an output tile overwrites C, later steps accumulate into it.
 *
 * @param tile the tile edge T
 * @param accumulate whether to add to C's current contents (false: C = A x B)
 * @param done counts finished kernels, for the progress line
 */
record GemmKernel(int tile, boolean accumulate, AtomicInteger done) implements Kernel {

  @Override
  public void run(KernelContext context) {
    float[] a = read(context, 0);
    float[] b = read(context, 1);
    float[] c = accumulate ? read(context, 2) : new float[tile * tile];
    multiplyAdd(a, b, c, tile);
    floats(context, 2).put(0, c);
    done.incrementAndGet();
  }

  /**
   * Runs the multiply loop on the calling thread until the JIT has compiled it, so the timeline
   * shows the devices' steady state rather than the interpreter. Returns the milliseconds spent.
   */
  static double warmUp(int tile) {
    long start = System.nanoTime();
    float[] a = new float[tile * tile];
    float[] c = new float[tile * tile];
    java.util.Arrays.fill(a, 0.5f);
    long work = 0;
    while (work < 50_000_000L) { // multiply-adds: enough for C2 at any tile size
      multiplyAdd(a, a, c, tile);
      work += (long) tile * tile * tile;
    }
    return (System.nanoTime() - start) / 1e6;
  }

  /** c += a x b for row-major n x n matrices, in the cache-friendly i-k-j order. */
  static void multiplyAdd(float[] a, float[] b, float[] c, int n) {
    for (int i = 0; i < n; i++) {
      int row = i * n;
      for (int k = 0; k < n; k++) {
        float aik = a[row + k];
        int bRow = k * n;
        for (int j = 0; j < n; j++) {
          c[row + j] += aik * b[bRow + j];
        }
      }
    }
  }

  private float[] read(KernelContext context, int buffer) {
    float[] values = new float[tile * tile];
    floats(context, buffer).get(0, values);
    return values;
  }

  private static FloatBuffer floats(KernelContext context, int buffer) {
    return context.buffer(buffer).order(HostTiles.ORDER).asFloatBuffer();
  }
}
