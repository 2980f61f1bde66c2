package dev.openaccel.cluster;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Stream;
import java.util.Objects;

/**
 * The checks a {@link ProcessGroup} applies at each call, before it enqueues anything: each throws
 * the JDK exception that fits with a message naming the call and the values. Internal; stateless.
 */
final class GroupChecks {
  /** The most bytes one buffer of a collective may hold: the host side is one Java array. */
  static final long MAX_BYTES = Integer.MAX_VALUE - 8;

  private GroupChecks() {}

  /**
   * @throws IllegalArgumentException if {@code stream} is not on {@code device}
   */
  static void stream(Stream stream, Device device, String call) {
    Objects.requireNonNull(stream, "stream");
    if (!stream.device().equals(device)) {
      throw new IllegalArgumentException(
          call
              + ": stream "
              + stream
              + " is on device "
              + stream.device()
              + ", but this member of the group is device "
              + device);
    }
  }

  /**
   * The number of elements of {@code type} in {@code buffer}, which is marked as used on {@code
   * stream}.
   *
   * @throws IllegalArgumentException if it is on another device than the stream, or its size is not
   *     a whole number of elements, or too large
   * @throws IllegalStateException if it is closed
   */
  static long elements(
      DeviceBuffer buffer, ElementType type, String role, Stream stream, String call) {
    Objects.requireNonNull(buffer, role);
    Objects.requireNonNull(type, "type");
    if (!buffer.device().equals(stream.device())) {
      throw new IllegalArgumentException(
          call
              + ": the "
              + role
              + " buffer is on device "
              + buffer.device()
              + ", not on the stream's device "
              + stream.device());
    }
    long size = buffer.size();
    if (size % type.size() != 0 || size > MAX_BYTES) {
      throw new IllegalArgumentException(
          call
              + ": the "
              + role
              + " buffer of "
              + size
              + " bytes is not a whole number of "
              + type
              + " elements of "
              + type.size()
              + " bytes, or over "
              + MAX_BYTES
              + " bytes");
    }
    try {
      buffer.recordStream(stream);
    } catch (IllegalStateException e) {
      throw new IllegalStateException(
          call + ": the " + role + " buffer is closed (" + e.getMessage() + ")", e);
    }
    return size / type.size();
  }

  /**
   * @throws IllegalArgumentException naming both sizes if {@code buffer} is not {@code expected}
   *     bytes
   */
  static void size(DeviceBuffer buffer, long expected, String role, String why, String call) {
    if (buffer.size() != expected) {
      throw new IllegalArgumentException(
          call
              + ": the "
              + role
              + " buffer must be "
              + expected
              + " bytes ("
              + why
              + "), got "
              + buffer.size()
              + " bytes");
    }
  }

  /**
   * @throws IllegalArgumentException if {@code rank} is not a rank of a group of {@code size}, or
   *     is {@code self} when {@code notSelf}
   */
  static int rank(int rank, int size, int self, boolean notSelf, String role, String call) {
    if (rank < 0 || rank >= size || (notSelf && rank == self)) {
      throw new IllegalArgumentException(
          call
              + ": "
              + role
              + " "
              + rank
              + " is not a rank of this group of "
              + size
              + " members"
              + (notSelf ? " other than this member's own rank " + self : ""));
    }
    return rank;
  }
}
