package dev.openaccel.runtime;

import java.nio.ByteBuffer;

/**
 * What a running {@link Kernel} sees: views of its buffers, its device and its stream. Valid only
 * while the kernel runs: afterwards the views have no remaining bytes (any access throws) and
 * {@link #buffer} throws {@link IllegalStateException}.
 */
public interface KernelContext {

  /**
   * A view of the {@code i}-th buffer passed to launch: position 0, limit and capacity its size,
   * big-endian like every new {@link ByteBuffer} (set {@link ByteBuffer#order} to match how the
   * bytes were written).
   *
   * @throws IndexOutOfBoundsException if there is no such buffer
   * @throws IllegalStateException if the kernel has returned
   */
  ByteBuffer buffer(int i);

  Device device();

  Stream stream();
}
