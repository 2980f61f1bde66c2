package dev.openaccel.cluster;

/**
 * How the algorithms of the collectives cut their bytes: into segments (of elements) or blocks (of
 * members), and those into pieces of at most the chunk size, each one message, numbered from 0 in
 * each segment. Internal; stateless.
 */
final class Pieces {
  /** What is done with each piece. */
  interface Visitor {
    /** Piece {@code piece} of segment {@code segment}: bytes {@code [from, from + length)}. */
    void visit(int segment, int piece, int from, int length);
  }

  private Pieces() {}

  /** The byte bounds of the n segments of {@code count} elements of {@code size} bytes. */
  static int[] segments(long count, int size, int members) {
    int[] bounds = new int[members + 1];
    for (int k = 0; k <= members; k++) {
      bounds[k] = (int) (k * count / members * size);
    }
    return bounds;
  }

  /** The bounds of n equal blocks of {@code block} bytes. */
  static int[] blocks(int block, int members) {
    int[] bounds = new int[members + 1];
    for (int k = 0; k <= members; k++) {
      bounds[k] = k * block;
    }
    return bounds;
  }

  /** Visits the pieces of each segment {@code [bounds[k], bounds[k + 1])}, in order. */
  static void forEach(int[] bounds, int chunk, Visitor visitor) {
    for (int k = 0; k + 1 < bounds.length; k++) {
      int piece = 0;
      for (int from = bounds[k]; from < bounds[k + 1]; from += chunk) {
        visitor.visit(k, piece++, from, Math.min(chunk, bounds[k + 1] - from));
      }
    }
  }

  /** Visits the pieces of {@code length} bytes as one segment. */
  static void forEach(int length, int chunk, Visitor visitor) {
    forEach(new int[] {0, length}, chunk, visitor);
  }
}
