package dev.openaccel.runtime;

import java.nio.ByteBuffer;

/**
 * What a running {@link Kernel} sees: views of its buffers, its device and its stream. Valid only
 * while the kernel runs: afterwards {@link #buffer} throws {@link IllegalStateException} ("used
 * after its kernel returned"), and a view kept past its kernel has no bytes left, so any access
 * throws {@link ByteBuffer}'s own exception: {@link IndexOutOfBoundsException} for an absolute
 * access, {@link java.nio.BufferUnderflowException} or {@link java.nio.BufferOverflowException} for
 * a relative one. Those carry no message (a {@code ByteBuffer} cannot be made to say more); in a
 * kernel, the {@link DeviceExecutionException} that reports them names the kernel.
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

  /** The device the kernel runs on: its stream's. */
  Device device();

  /** The stream the kernel was launched on. */
  Stream stream();
}
