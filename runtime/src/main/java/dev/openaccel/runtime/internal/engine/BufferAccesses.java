package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.Stream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the stream sanitizer remembers of one buffer: its last write and, per stream, the latest
 * read since that write. Internal.
 *
 * <p>Owns: both, written only under the {@link Sanitizer}'s lock.
 */
final class BufferAccesses {
  private Access lastWrite;
  private final Map<Stream, Access> readsSinceWrite = new LinkedHashMap<>();

  /** One enqueued access: its stream, its position in that stream's clock, what made it. */
  record Access(Stream stream, long position, String name, boolean write) {
    @Override
    public String toString() {
      return name
          + " ("
          + (write ? "write" : "read")
          + ") at position "
          + position
          + " of "
          + stream;
    }
  }

  /**
   * The first earlier access that conflicts with {@code now} (write/any, any/write) on another
   * stream and is not ordered before it by {@code clock}; null if there is none.
   */
  Access conflictWith(Access now, VectorClock clock) {
    if (unordered(lastWrite, now, clock)) {
      return lastWrite;
    }
    if (now.write()) {
      for (Access read : readsSinceWrite.values()) {
        if (unordered(read, now, clock)) {
          return read;
        }
      }
    }
    return null;
  }

  private static boolean unordered(Access earlier, Access now, VectorClock clock) {
    return earlier != null
        && !earlier.stream().equals(now.stream())
        && clock.get(earlier.stream()) < earlier.position();
  }

  void add(Access now) {
    if (now.write()) {
      lastWrite = now;
      readsSinceWrite.clear();
    } else {
      readsSinceWrite.put(now.stream(), now);
    }
  }

  /** The last write and the reads since it, oldest first. */
  List<Access> all() {
    List<Access> all = new ArrayList<>();
    if (lastWrite != null) {
      all.add(lastWrite);
    }
    all.addAll(readsSinceWrite.values());
    return all;
  }
}
