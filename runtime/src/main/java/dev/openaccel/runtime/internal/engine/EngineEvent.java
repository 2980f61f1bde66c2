package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.spi.BackendEvent;

/**
 * The engine's backend event: an id, a device, and its latest {@link Generation}. Internal.
 *
 * <p>Owns: the pointer to the latest generation, changed only under this object's monitor by {@link
 * #record}; readers see it through a volatile read. The next generation's number is the latest's
 * plus one, so the event keeps no counter of its own. Because {@code latest} is published only
 * after the record is in its stream's queue, a wait that reads it is always enqueued after that
 * record: a record's generation and its place in its stream are one step, as far as any concurrent
 * wait can see. A record that completed where it was made ({@link StreamHandle#completesAtOnce})
 * keeps no generation: {@code latest} is then {@link #AT_ONCE} and its number and time are in
 * {@code atOnceNumber} and {@code atOnceNanos}, written and read under the monitor. Also whether
 * the event was ever exported, set once by {@code EngineEvents.export}.
 */
final class EngineEvent implements BackendEvent {
  // The latest record completed without failure where it was made; see the class comment.
  private static final Generation AT_ONCE = Generation.unnamed("a record completed at once");

  private final long id;
  private final int deviceIndex;
  private final boolean timing;
  private volatile Generation latest;
  private long atOnceNumber; // guarded by this: meaningful while latest is AT_ONCE
  private long atOnceNanos; // guarded by this: meaningful while latest is AT_ONCE
  // Set once, by the first export: only an exported event has an entry to remove when destroyed.
  private volatile boolean exported;

  EngineEvent(long id, int deviceIndex, boolean timing) {
    this.id = id;
    this.deviceIndex = deviceIndex;
    this.timing = timing;
  }

  @Override
  public long id() {
    return id;
  }

  @Override
  public int deviceIndex() {
    return deviceIndex;
  }

  /** Whether completions of this event carry timestamps meant for elapsed time. */
  boolean timing() {
    return timing;
  }

  boolean exported() {
    return exported;
  }

  void markExported() {
    exported = true;
  }

  /**
   * The latest record whose place in its stream is fixed, or null if never recorded. A record that
   * completed where it was made comes back as a new completed generation on each call.
   */
  Generation latest() {
    Generation current = latest;
    if (current != AT_ONCE) {
      return current;
    }
    synchronized (this) {
      current = latest;
      return current == AT_ONCE ? Generation.completed(this, atOnceNumber, atOnceNanos) : current;
    }
  }

  boolean wasRecorded() {
    return latest != null;
  }

  /** Whether the latest record, if any, has completed. */
  boolean isComplete() {
    Generation current = latest;
    return current == null || current == AT_ONCE || current.isDone();
  }

  /**
   * The latest record if waiting for it can still block or report a failure (it is incomplete, or
   * failed); null if there is none or it completed without failure.
   */
  Generation toWaitFor() {
    Generation current = latest;
    if (current == null || current == AT_ONCE || current.succeeded()) {
      return null;
    }
    return current;
  }

  /**
   * Starts a new record and enqueues it on {@code stream}, then publishes it as the latest. On a
   * stream that could complete it at once ({@link StreamHandle#completesAtOnce}) the record is made
   * complete instead, without a trip through the stream and without a generation. A timing event
   * always takes the trip: its stream then lingers for the work being timed, so that a wake-up is
   * not measured.
   *
   * @return the record's number
   * @throws IllegalStateException if the stream accepts no more work; the record then stays failed
   *     as the latest, so later waits and synchronizes report why
   */
  synchronized long record(StreamHandle stream) {
    Generation previous = latest;
    long number =
        previous == null ? 1 : (previous == AT_ONCE ? atOnceNumber : previous.number()) + 1;
    if (!timing && stream.completesAtOnce()) {
      atOnceNumber = number;
      atOnceNanos = System.nanoTime();
      latest = AT_ONCE;
      return number;
    }
    Generation next = Generation.of(this, number);
    try {
      stream.enqueue(next);
    } finally {
      latest = next; // on a stopped stream the record was settled as failed, and stays the latest
    }
    return number;
  }

  @Override
  public String toString() {
    return "EngineEvent(id=" + id + ", device_index=" + deviceIndex + ")";
  }
}
