package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.spi.BackendEvent;
import dev.openaccel.runtime.spi.EngineSpec;

/**
 * The engine's backend event: an id, a device, and its latest {@link Generation}. Internal.
 *
 * <p>Owns: the pointer to the latest generation, changed only under this object's monitor by {@link
 * #record} (or, before the event is published, by {@link #recordUnlocked}); readers see it through
 * a volatile read. The next generation's number is the latest's plus one, so the event keeps no
 * counter of its own. Because {@code latest} is published only after the record is in its stream's
 * queue, a wait that reads it is always enqueued after that record: a record's generation and its
 * place in its stream are one step, as far as any concurrent wait can see. A record that completed
 * where it was made ({@link StreamQueue#completesAtOnce}) keeps no generation: {@code latest} is
 * then {@link #AT_ONCE} and its number and time are in {@code atOnceNumber} and {@code
 * atOnceNanos}, written and read under the monitor. The record itself reads the time from the
 * clock, since subscribers order completions by it (read when first asked for instead, it would
 * stamp the record later than records that completed after it).
 *
 * <p>An event is 40 bytes with compressed references, because applications keep many alive: the id,
 * the device index and the timing flag share one {@code long} ({@link #key}).
 */
final class EngineEvent implements BackendEvent {
  /** The largest device index an event can name (the key's 15 bits). */
  static final int MAX_DEVICE_INDEX = EngineSpec.MAX_DEVICE_COUNT - 1;

  /** Ids are the key's low 48 bits: unique among live events unless one outlives 2^48 others. */
  static final long ID_MASK = (1L << 48) - 1;

  private static final int DEVICE_SHIFT = 48;
  // The latest record completed without failure where it was made; see the class comment.
  private static final Generation AT_ONCE = Generation.unnamed("a record completed at once");

  // Bits 0-47 the id, 48-62 the device index, 63 whether the event is timing (the key's sign).
  private final long key;
  private volatile Generation latest;
  private long atOnceNumber; // guarded by this: meaningful while latest is AT_ONCE
  private long atOnceNanos; // guarded by this: meaningful while latest is AT_ONCE

  /**
   * @param id non-zero, at most {@link #ID_MASK}
   * @param deviceIndex 0 to {@link #MAX_DEVICE_INDEX}
   */
  EngineEvent(long id, int deviceIndex, boolean timing) {
    if (id <= 0 || id > ID_MASK || deviceIndex < 0 || deviceIndex > MAX_DEVICE_INDEX) {
      throw new IllegalArgumentException(
          "event id " + id + " or device index " + deviceIndex + " out of the key's range");
    }
    this.key = id | ((long) deviceIndex << DEVICE_SHIFT) | (timing ? Long.MIN_VALUE : 0);
  }

  @Override
  public long id() {
    return key & ID_MASK;
  }

  @Override
  public int deviceIndex() {
    return (int) (key >>> DEVICE_SHIFT) & MAX_DEVICE_INDEX;
  }

  /** Whether completions of this event carry timestamps meant for elapsed time. */
  boolean timing() {
    return key < 0;
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
   * stream that could complete it at once ({@link StreamQueue#completesAtOnce}) the record is made
   * complete instead, without a trip through the stream and without a generation. A timing event
   * always takes the trip: its stream then lingers for the work being timed, so that a wake-up is
   * not measured.
   *
   * @return the record's number
   * @throws IllegalStateException if the stream accepts no more work; the record then stays failed
   *     as the latest, so later waits and synchronizes report why
   */
  synchronized long record(StreamQueue stream) {
    return recordUnlocked(stream);
  }

  /**
   * Like {@link #record}, without taking the monitor: for the first record of an event no other
   * thread can see yet.
   */
  long recordUnlocked(StreamQueue stream) {
    Sanitizer sanitizer = stream.engine().sanitizer();
    if (sanitizer != null) {
      sanitizer.recorded(this, stream.stream()); // in record order: under this event's monitor
    }
    long number = nextNumber();
    if (!timing() && stream.completesAtOnce()) {
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

  /**
   * Makes {@code stream} wait for the latest record, the generation this call captures: later
   * records never change what it waits for. A record that completed without failure leaves nothing
   * to wait for, and none enqueued after this call can be captured.
   *
   * @return the captured record, or null if the event was never recorded
   * @throws IllegalStateException if the stream accepts no more work
   */
  Generation block(StreamQueue stream) {
    Generation latest = latest();
    Sanitizer sanitizer = stream.engine().sanitizer();
    if (sanitizer != null && latest != null) {
      sanitizer.waited(this, stream.stream());
    }
    if (latest != null && !latest.succeeded()) {
      stream.enqueue(new WorkItem.Wait(latest));
    }
    return latest;
  }

  // The number of the next record; under the monitor, or before the event is published.
  private long nextNumber() {
    Generation previous = latest;
    return previous == null ? 1 : (previous == AT_ONCE ? atOnceNumber : previous.number()) + 1;
  }

  /**
   * Records this event on {@code stream} for a graph's replay: always through the stream, and
   * published as the latest record, as {@link #record} does.
   *
   * @return the record enqueued
   */
  synchronized Generation replayRecord(StreamQueue stream) {
    Generation next = Generation.of(this, nextNumber());
    try {
      stream.enqueue(next);
    } finally {
      latest = next;
    }
    return next;
  }

  @Override
  public String toString() {
    return "EngineEvent(id=" + id() + ", device_index=" + deviceIndex() + ")";
  }
}
