package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.UnsynchronizedAccessException;
import dev.openaccel.runtime.internal.engine.BufferAccesses.Access;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stream sanitizer of one engine ({@code openaccel.sanitizer = throw | log}): finds accesses to
 * a buffer that no synchronization orders, the way PyTorch's CSAN does, at enqueue time on the
 * caller's thread, in the order the calls take this object's lock. Internal; null in the engine
 * when the mode is {@code off}.
 *
 * <p>Each stream has a {@link VectorClock} whose own entry counts its accesses; an event's record
 * keeps a copy of its stream's clock (kept here per event, not in the record's {@link Generation},
 * because a record that completes at once has none); a wait on an event or a stream merges that
 * copy or that clock into the waiting stream's; a blocking synchronize of a stream, an event or a
 * device merges theirs into the host's clock, which every stream merges before each access, so work
 * enqueued after a synchronize is ordered after what it covered. Each buffer has its {@link
 * BufferAccesses}. An access races when an earlier conflicting one of another stream has a position
 * above the accessing stream's entry for that stream.
 *
 * <p>Owns: every clock, the events' copies and the buffers' accesses, all guarded by {@code lock},
 * which any caller thread takes for a few map operations per call. Streams' entries are never
 * dropped (a few words per stream that did any work); events and buffers are weakly held, and a
 * closed buffer is forgotten.
 */
final class Sanitizer {
  private static final Logger log = LoggerFactory.getLogger(Sanitizer.class);

  private final boolean throwing;
  private final Object lock = new Object();
  private final Map<Stream, VectorClock> streams = new HashMap<>();
  private final VectorClock host = new VectorClock();
  private final Map<EngineEvent, VectorClock> records = new WeakHashMap<>();
  private final Map<Buffer, BufferAccesses> buffers = new WeakHashMap<>();

  private Sanitizer(boolean throwing) {
    this.throwing = throwing;
  }

  /** The sanitizer for {@code mode}, or null for {@link SanitizerMode#OFF}. */
  static Sanitizer of(SanitizerMode mode) {
    return mode == SanitizerMode.OFF ? null : new Sanitizer(mode == SanitizerMode.THROW);
  }

  /**
   * Checks and notes one access of {@code stream}: {@code reads} are read, {@code writes} written
   * (a buffer in both is written).
   *
   * @throws UnsynchronizedAccessException in throw mode if it races; nothing is noted then
   */
  void access(Stream stream, String name, List<Buffer> reads, List<Buffer> writes) {
    String report = null;
    synchronized (lock) {
      VectorClock clock = clockOf(stream);
      long position = clock.get(stream) + 1;
      Access read = new Access(stream, position, name, false);
      Access write = new Access(stream, position, name, true);
      for (Buffer buffer : writes) {
        report = report != null ? report : check(buffer, write, clock);
      }
      for (Buffer buffer : reads) {
        report = report != null ? report : check(buffer, read, clock);
      }
      if (report == null || !throwing) {
        clock.set(stream, position);
        reads.forEach(buffer -> accessesOf(buffer).add(read));
        writes.forEach(buffer -> accessesOf(buffer).add(write));
      }
    }
    report(report);
  }

  private String check(Buffer buffer, Access now, VectorClock clock) {
    Access earlier = accessesOf(buffer).conflictWith(now, clock);
    if (earlier == null) {
      return null;
    }
    return "unsynchronized access to "
        + buffer
        + ": "
        + now
        + " is not ordered after "
        + earlier
        + "; add waitEvent(an event recorded on "
        + earlier.stream()
        + " after "
        + earlier.name()
        + ") or waitStream("
        + earlier.stream()
        + ") on "
        + now.stream()
        + " before "
        + now.name()
        + ", or synchronize "
        + earlier.stream()
        + " before enqueuing it";
  }

  /** Notes a record of {@code event} on {@code stream}: waits on it order after what it covers. */
  void recorded(EngineEvent event, Stream stream) {
    synchronized (lock) {
      records.put(event, clockOf(stream).copy());
    }
  }

  /** Notes that {@code stream}'s later work waits for the latest record of {@code event}. */
  void waited(EngineEvent event, Stream stream) {
    synchronized (lock) {
      clockOf(stream).merge(records.get(event));
    }
  }

  /** Notes that {@code stream}'s later work waits for the work enqueued on {@code other}. */
  void waited(Stream other, Stream stream) {
    synchronized (lock) {
      clockOf(stream).merge(streams.get(other));
    }
  }

  /** Notes that the host has synchronized with the work enqueued on {@code stream}. */
  void hostSynchronized(Stream stream) {
    synchronized (lock) {
      host.merge(streams.get(stream));
    }
  }

  /** Notes that the host has synchronized with the latest record of {@code event}. */
  void hostSynchronized(EngineEvent event) {
    synchronized (lock) {
      host.merge(records.get(event));
    }
  }

  /** Notes that the host has synchronized with the work enqueued on every stream of a device. */
  void hostSynchronized(int deviceIndex) {
    synchronized (lock) {
      streams.forEach(
          (stream, clock) -> {
            if (stream.deviceIndex() == deviceIndex) {
              host.merge(clock);
            }
          });
    }
  }

  /**
   * Checks a close of {@code buffer}, allocated on {@code allocatedOn} and recorded on {@code
   * recorded}: every access of another stream must be ordered before the allocation stream's next
   * work (by a wait there or a host synchronize), or that stream must be recorded.
   *
   * @throws UnsynchronizedAccessException in throw mode if one is not; the buffer is kept then
   */
  void closing(Buffer buffer, Stream allocatedOn, Set<Stream> recorded) {
    String report = null;
    synchronized (lock) {
      BufferAccesses accesses = buffers.get(buffer);
      VectorClock reuse = streams.get(allocatedOn);
      for (Access access : accesses == null ? List.<Access>of() : accesses.all()) {
        Stream other = access.stream();
        boolean ordered =
            other.equals(allocatedOn)
                || recorded.contains(other)
                || host.get(other) >= access.position()
                || (reuse != null && reuse.get(other) >= access.position());
        if (!ordered) {
          report =
              "unsynchronized close of "
                  + buffer
                  + ", allocated on "
                  + allocatedOn
                  + ": "
                  + access
                  + " may still be pending; call recordStream("
                  + other
                  + ") on the buffer before closing it, or synchronize "
                  + other
                  + " first";
          break;
        }
      }
      if (report == null || !throwing) {
        buffers.remove(buffer);
      }
    }
    report(report);
  }

  // The stream's clock, after every host access done before this call.
  private VectorClock clockOf(Stream stream) {
    VectorClock clock = streams.computeIfAbsent(stream, s -> new VectorClock());
    clock.merge(host);
    return clock;
  }

  private BufferAccesses accessesOf(Buffer buffer) {
    return buffers.computeIfAbsent(buffer, b -> new BufferAccesses());
  }

  private void report(String report) {
    if (report == null) {
      return;
    }
    if (throwing) {
      throw new UnsynchronizedAccessException(report);
    }
    log.warn(report);
  }
}
