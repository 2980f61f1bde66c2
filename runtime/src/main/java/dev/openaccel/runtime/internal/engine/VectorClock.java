package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.Stream;
import java.util.HashMap;
import java.util.Map;

/**
 * A vector clock of the stream sanitizer: for each stream, how many of its accesses and records are
 * known to be ordered before the owner of this clock (a stream, the host, an event's record).
 * Internal.
 *
 * <p>Owns: its entries, written only under the {@link Sanitizer}'s lock.
 */
final class VectorClock {
  private final Map<Stream, Long> counts;

  VectorClock() {
    this.counts = new HashMap<>();
  }

  private VectorClock(Map<Stream, Long> counts) {
    this.counts = new HashMap<>(counts);
  }

  /** The count of {@code stream}'s accesses ordered before this clock's owner; 0 if none. */
  long get(Stream stream) {
    Long count = counts.get(stream);
    return count == null ? 0 : count;
  }

  void set(Stream stream, long count) {
    counts.put(stream, count);
  }

  /** Takes the larger count of each stream: whatever {@code other} is after, this is after too. */
  void merge(VectorClock other) {
    if (other != null && other != this) {
      other.counts.forEach((stream, count) -> counts.merge(stream, count, Math::max));
    }
  }

  VectorClock copy() {
    return new VectorClock(counts);
  }
}
