package dev.openaccel.runtime.internal;

import dev.openaccel.runtime.spi.BackendEvent;

/**
 * The engine's backend event: an id, a device, and its latest {@link Generation}. Internal.
 *
 * <p>Owns: the generation counter and the pointer to the latest generation, both changed only under
 * this object's monitor by {@link #newGeneration}; readers see {@code latest} through a volatile
 * read.
 */
public final class EventCore implements BackendEvent {
  private final long id;
  private final int deviceIndex;
  private final boolean timing;
  private long generations;
  private volatile Generation latest;

  EventCore(long id, int deviceIndex, boolean timing) {
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
  public boolean timing() {
    return timing;
  }

  /** The latest record, or null if never recorded. */
  public Generation latest() {
    return latest;
  }

  /** Starts a new record; the caller enqueues it on the recording stream. */
  synchronized Generation newGeneration() {
    Generation next = new Generation(this, ++generations);
    latest = next;
    return next;
  }

  @Override
  public String toString() {
    return "EventCore(id=" + id + ", device_index=" + deviceIndex + ")";
  }
}
