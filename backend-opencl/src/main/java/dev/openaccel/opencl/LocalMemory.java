package dev.openaccel.opencl;

/**
 * A device-kernel argument for a {@code __local} pointer parameter: {@code bytes} of work-group
 * memory (CUDA's dynamic shared memory).
 *
 * @param bytes bytes per work-group, {@code > 0}
 */
public record LocalMemory(long bytes) {
  /**
   * Checks the size: {@link IllegalArgumentException} ("local memory must be > 0 bytes, got ...")
   * unless positive.
   */
  public LocalMemory {
    if (bytes <= 0) {
      throw new IllegalArgumentException("local memory must be > 0 bytes, got " + bytes);
    }
  }

  /** {@code bytes} of work-group memory; the same checks as the constructor. */
  public static LocalMemory bytes(long bytes) {
    return new LocalMemory(bytes);
  }
}
