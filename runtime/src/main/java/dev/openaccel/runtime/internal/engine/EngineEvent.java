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
 * wait can see.
 */
final class EngineEvent implements BackendEvent {
  private final long id;
  private final int deviceIndex;
  private final boolean timing;
  private volatile Generation latest;

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

  /** The latest record whose place in its stream is fixed, or null if never recorded. */
  Generation latest() {
    return latest;
  }

  /**
   * Starts a new record and enqueues it on {@code stream}, then publishes it as the latest. On a
   * stream that could complete it at once ({@link StreamHandle#completesAtOnce}) the record is made
   * complete instead, without a trip through the stream. A timing event always takes the trip: its
   * stream then lingers for the work being timed, so that a wake-up is not measured.
   *
   * @throws IllegalStateException if the stream accepts no more work; the record then stays failed
   *     as the latest, so later waits and synchronizes report why
   */
  synchronized Generation record(StreamHandle stream) {
    Generation previous = latest;
    long number = previous == null ? 1 : previous.number() + 1;
    if (!timing && stream.completesAtOnce()) {
      Generation done = Generation.completed(this, number, System.nanoTime());
      latest = done;
      return done;
    }
    Generation next = Generation.of(this, number);
    try {
      stream.enqueue(next);
    } finally {
      latest = next; // on a stopped stream the record was settled as failed, and stays the latest
    }
    return next;
  }

  @Override
  public String toString() {
    return "EngineEvent(id=" + id + ", device_index=" + deviceIndex + ")";
  }
}
