package dev.openaccel.cluster;

import java.nio.ByteBuffer;
import java.nio.LongBuffer;
import java.util.SplittableRandom;

/**
 * Pseudo-random test data, fast: {@code java.util.Random.nextBytes} makes about 150 MB/s, which
 * made generating the data dominate the bulk tests; eight bytes per {@link SplittableRandom} step
 * run at memory speed.
 */
final class Patterns {
  private Patterns() {}

  /** Fills {@code bytes} with the pseudo-random sequence of {@code random}. */
  static void fill(byte[] bytes, SplittableRandom random) {
    LongBuffer longs = ByteBuffer.wrap(bytes).asLongBuffer();
    while (longs.hasRemaining()) {
      longs.put(random.nextLong());
    }
    for (int i = longs.capacity() * 8; i < bytes.length; i++) {
      bytes[i] = (byte) random.nextInt();
    }
  }
}
