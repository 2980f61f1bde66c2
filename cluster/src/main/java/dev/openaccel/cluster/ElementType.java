package dev.openaccel.cluster;

/**
 * The element types a {@link ProcessGroup} reduces and counts in. Elements are read from a buffer's
 * bytes in Java's {@link java.nio.ByteBuffer} default order (big-endian), as a kernel's buffer
 * views ({@code context.buffer(i).getFloat(...)}) read them.
 */
public enum ElementType {
  /** IEEE 754 single precision, 4 bytes. */
  FLOAT32(4),
  /** IEEE 754 double precision, 8 bytes. */
  FLOAT64(8),
  /** Two's complement 32-bit integer; arithmetic wraps around. */
  INT32(4),
  /** Two's complement 64-bit integer; arithmetic wraps around. */
  INT64(8);

  private final int size;

  ElementType(int size) {
    this.size = size;
  }

  /** The size of one element in bytes. */
  public int size() {
    return size;
  }

  /** The name as descriptors and error messages write it ({@code float32}). */
  @Override
  public String toString() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
