package dev.openaccel.runtime.spi;

import dev.openaccel.runtime.DeviceBuffer;
import java.nio.ByteBuffer;

/**
 * The argument checks of the three stream copies, with the messages the contract asks for (both
 * sizes named), in one place for the engine's simulated memory and every backend's own {@link
 * DeviceMemory}.
 */
public final class CopyChecks {
  private CopyChecks() {}

  /**
   * Checks {@code Stream.copyToDevice(src, dst)}.
   *
   * @return the number of bytes to copy
   * @throws IllegalArgumentException naming both sizes if {@code src.remaining() != dst.size()}
   */
  public static int toDevice(ByteBuffer src, DeviceBuffer dst) {
    return sameSize("copyToDevice", src.remaining(), dst.size());
  }

  /**
   * Checks {@code Stream.copyToHost(src, dst)}.
   *
   * @return the number of bytes to copy
   * @throws IllegalArgumentException if {@code dst} is read-only, or naming both sizes if {@code
   *     dst.remaining() != src.size()}
   */
  public static int toHost(DeviceBuffer src, ByteBuffer dst) {
    if (dst.isReadOnly()) {
      throw new IllegalArgumentException("copyToHost needs a writable destination, got " + dst);
    }
    return sameSize("copyToHost", dst.remaining(), src.size());
  }

  /**
   * Checks {@code Stream.copy(src, dst)}.
   *
   * @throws IllegalArgumentException naming both buffers and sizes if they differ
   */
  public static void between(DeviceBuffer src, DeviceBuffer dst) {
    if (src.size() != dst.size()) {
      throw new IllegalArgumentException(
          "copy size mismatch: source "
              + src
              + " has "
              + src.size()
              + " bytes, destination "
              + dst
              + " has "
              + dst.size()
              + " bytes");
    }
  }

  private static int sameSize(String copy, long hostBytes, long deviceBytes) {
    if (hostBytes != deviceBytes) {
      throw new IllegalArgumentException(
          copy
              + " size mismatch: the host buffer has "
              + hostBytes
              + " bytes remaining, the device buffer has "
              + deviceBytes
              + " bytes");
    }
    return (int) deviceBytes;
  }
}
