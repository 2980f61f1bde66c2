package dev.openaccel.samples.pipeline;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;

/**
 * The host side of the multiply: A and B packed tile by tile, and C's tiles as the devices copy
 * them back. Packing makes every tile one contiguous block, so each host-device transfer is a
 * single copy. Tiles are stored in tile-major order, each tile row-major, float32 little-endian, in
 * direct buffers: a device with its own queues copies them in place and in stream order, where a
 * heap buffer would make each copy wait for the stream's earlier device work (its bytes are read
 * when the copy runs).
 *
 * <p>The buffers are shared by all devices' copy streams: copies read A and B and write disjoint
 * tiles of C, always through their own slices, so no position is ever shared.
 */
public final class HostTiles {
  /** The byte order of every tile, on the host and in device buffers. */
  public static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

  private final int size;
  private final int tile;
  private final ByteBuffer a;
  private final ByteBuffer b;
  private final ByteBuffer c;

  private HostTiles(int size, int tile, ByteBuffer a, ByteBuffer b) {
    this.size = size;
    this.tile = tile;
    this.a = a;
    this.b = b;
    this.c = ByteBuffer.allocateDirect(a.capacity()).order(ORDER);
  }

  /** Packs the row-major N x N matrices {@code a} and {@code b} into T x T tiles. */
  public static HostTiles pack(float[] a, float[] b, int size, int tile) {
    return new HostTiles(size, tile, packed(a, size, tile), packed(b, size, tile));
  }

  /** Tile (row, k) of A, ready to copy. */
  public ByteBuffer aTile(int row, int k) {
    return slice(a, row, k);
  }

  /** Tile (k, col) of B, ready to copy. */
  public ByteBuffer bTile(int k, int col) {
    return slice(b, k, col);
  }

  /** Where tile (row, col) of C goes. */
  public ByteBuffer cTile(int row, int col) {
    return slice(c, row, col);
  }

  /** C, unpacked to a row-major N x N matrix; read it after the copies into it completed. */
  public float[] result() {
    float[] matrix = new float[size * size];
    FloatBuffer tiles = c.duplicate().order(ORDER).asFloatBuffer();
    int perSide = size / tile;
    for (int row = 0; row < perSide; row++) {
      for (int col = 0; col < perSide; col++) {
        int base = (row * perSide + col) * tile * tile;
        for (int r = 0; r < tile; r++) {
          tiles.get(base + r * tile, matrix, (row * tile + r) * size + col * tile, tile);
        }
      }
    }
    return matrix;
  }

  private ByteBuffer slice(ByteBuffer packed, int row, int col) {
    int bytes = 4 * tile * tile;
    int index = (row * (size / tile) + col) * bytes;
    return packed.slice(index, bytes).order(ORDER);
  }

  private static ByteBuffer packed(float[] matrix, int size, int tile) {
    ByteBuffer bytes = ByteBuffer.allocateDirect(4 * size * size).order(ORDER);
    FloatBuffer tiles = bytes.asFloatBuffer();
    int perSide = size / tile;
    for (int row = 0; row < perSide; row++) {
      for (int col = 0; col < perSide; col++) {
        int base = (row * perSide + col) * tile * tile;
        for (int r = 0; r < tile; r++) {
          tiles.put(base + r * tile, matrix, (row * tile + r) * size + col * tile, tile);
        }
      }
    }
    return bytes;
  }
}
