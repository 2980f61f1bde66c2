package dev.openaccel.samples.pipeline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** The host side of the multiply: tile packing, the tile loop against the reference, comparison. */
class TileMathTest {
  private static final int N = 12;
  private static final int T = 4;

  @Test
  void tilesPackedFromAMatrixUnpackToTheSameMatrix() {
    float[] a = Matrices.random(N, 7);
    HostTiles host = HostTiles.pack(a, a, N, T);
    for (int row = 0; row < N / T; row++) {
      for (int col = 0; col < N / T; col++) {
        host.cTile(row, col).put(host.aTile(row, col));
      }
    }
    assertArrayEquals(a, host.result());
  }

  @Test
  void aTileHoldsItsRowsOfTheMatrixContiguously() {
    float[] a = new float[N * N];
    for (int i = 0; i < a.length; i++) {
      a[i] = i;
    }
    ByteBuffer tile = HostTiles.pack(a, a, N, T).aTile(1, 2).order(HostTiles.ORDER);
    assertEquals(4 * T * T, tile.remaining());
    assertEquals(a[(1 * T) * N + 2 * T], tile.getFloat(0)); // first element of the tile
    assertEquals(a[(1 * T + 1) * N + 2 * T], tile.getFloat(4 * T)); // first of its second row
  }

  @Test
  void tileByTileMultiplyEqualsTheReference() {
    float[] a = Matrices.random(N, 1);
    float[] b = Matrices.random(N, 2);
    HostTiles host = HostTiles.pack(a, b, N, T);
    for (int row = 0; row < N / T; row++) {
      for (int col = 0; col < N / T; col++) {
        float[] c = new float[T * T];
        for (int k = 0; k < N / T; k++) {
          GemmKernel.multiplyAdd(floats(host.aTile(row, k)), floats(host.bTile(k, col)), c, T);
        }
        host.cTile(row, col).order(HostTiles.ORDER).asFloatBuffer().put(c);
      }
    }
    float[] expected = Matrices.multiply(a, b, N, row -> {});
    assertEquals(0.0, Matrices.maxAbsDiff(host.result(), expected), Matrices.tolerance(N));
  }

  @Test
  void referenceMultipliesSmallMatricesExactly() {
    float[] a = {1, 2, 3, 4};
    float[] b = {5, 6, 7, 8};
    assertArrayEquals(new float[] {19, 22, 43, 50}, Matrices.multiply(a, b, 2, row -> {}));
  }

  @Test
  void nanCountsAsAnInfiniteDifference() {
    assertEquals(
        Double.POSITIVE_INFINITY,
        Matrices.maxAbsDiff(new float[] {1, Float.NaN}, new float[] {1, 2}));
    assertEquals(0.5, Matrices.maxAbsDiff(new float[] {1, 2}, new float[] {1, 2.5f}), 0.0);
  }

  @Test
  void matricesOfDifferentLengthsCannotBeCompared() {
    assertThrows(
        IllegalArgumentException.class, () -> Matrices.maxAbsDiff(new float[1], new float[2]));
  }

  private static float[] floats(ByteBuffer tile) {
    float[] values = new float[T * T];
    tile.order(HostTiles.ORDER).asFloatBuffer().get(values);
    return values;
  }
}
