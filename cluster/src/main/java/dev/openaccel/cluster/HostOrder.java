package dev.openaccel.cluster;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * The byte order in which one member's buffers hold the elements of an operation, and the
 * conversion to the order its messages and reductions use, {@link ElementType}'s big-endian: a
 * member whose buffers are little-endian (as OpenCL device kernels, or Java kernels with views in
 * native order, write them) has its input reversed element by element once it is on the host, and
 * its result reversed back before it goes to the device. So members of either order form one group
 * and get the same values, each in its own order. Internal; immutable.
 *
 * @param type the elements, or null for an operation without data (a barrier)
 * @param order the order of this member's buffers
 */
record HostOrder(ElementType type, ByteOrder order) {
  /** An operation without data. */
  static final HostOrder NONE = new HostOrder(null, ByteOrder.BIG_ENDIAN);

  /**
   * {@code algorithm}, run on the host copy of the input ({@code in}, null if this member has no
   * input) and producing the host copy of the result ({@code out}, null if it has no output), with
   * both converted from and to this member's order: the input when the algorithm starts (once the
   * members agreed on the operation), the result on {@code executor} once it ended.
   */
  Supplier<CompletableFuture<Void>> around(
      ByteBuffer in,
      ByteBuffer out,
      Executor executor,
      Supplier<CompletableFuture<Void>> algorithm) {
    if (type == null || order == ByteOrder.BIG_ENDIAN) {
      return algorithm;
    }
    return () -> {
      reverse(in);
      return algorithm
          .get()
          .thenApplyAsync(
              done -> {
                reverse(out);
                return done;
              },
              executor); // not on the thread of the last stage: that may be the bulk lane's
    };
  }

  /** Reverses the bytes of every element of {@code region} (from its position to its limit). */
  private void reverse(ByteBuffer region) {
    if (region == null) {
      return;
    }
    ByteBuffer bytes = region.slice();
    for (int at = 0; at < bytes.limit(); at += type.size()) {
      switch (type.size()) {
        case 4 -> bytes.putInt(at, Integer.reverseBytes(bytes.getInt(at)));
        case 8 -> bytes.putLong(at, Long.reverseBytes(bytes.getLong(at)));
        default -> throw new IllegalStateException("no " + type.size() + "-byte elements");
      }
    }
  }
}
