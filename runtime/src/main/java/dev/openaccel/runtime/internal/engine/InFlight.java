package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.spi.Completion;
import java.util.ArrayDeque;
import java.util.function.Consumer;

/**
 * The items a stream has handed to its device queue and not yet seen end, in submission order.
 * Device callbacks may end them in any order; each end is handed to the stream's actor as a
 * message, and the actor settles items strictly from the front, so progress, failures and records
 * are applied in stream order. Internal; confined to the stream's actor.
 *
 * <p>Owns: the queue of entries, each entry's outcome, and the count of entries that may still fill
 * heap memory; all are written only by the actor (an entry's {@link Completion} methods only send a
 * message).
 */
final class InFlight {

  /** How an ended entry settles, in order: counts, records, waits, syncs. */
  interface Settle {
    void settle(long deviceNanos, DeviceExecutionException failure);
  }

  /** One submitted item; its {@link Completion} is what the device queue calls. */
  static final class Entry implements Completion {
    private final Consumer<Ended> mailbox;
    private final Settle settle;
    private final boolean fillsHeap;
    private int pending; // ends still to arrive: the device's, and for waits the record's own
    private long deviceNanos;
    private DeviceExecutionException failure;

    private Entry(Consumer<Ended> mailbox, Settle settle, int pending, boolean fillsHeap) {
      this.mailbox = mailbox;
      this.settle = settle;
      this.pending = pending;
      this.fillsHeap = fillsHeap;
    }

    @Override
    public void complete(long nanos) {
      mailbox.accept(new Ended(this, nanos, null));
    }

    @Override
    public void fail(Throwable cause) {
      mailbox.accept(new Ended(this, 0, Failures.asExecutionFailure(cause)));
    }
  }

  /** A message: {@code entry} ended (one of its pending ends). */
  record Ended(Entry entry, long deviceNanos, DeviceExecutionException failure) {}

  private ArrayDeque<Entry> entries; // created with the first entry: an idle stream has none
  private final Consumer<Ended> mailbox;
  private int fillingHeap; // entries in the queue that may still write heap memory

  /**
   * @param mailbox how an end reaches the actor (a tell; called on any thread)
   */
  InFlight(Consumer<Ended> mailbox) {
    this.mailbox = mailbox;
  }

  boolean isEmpty() {
    return entries == null || entries.isEmpty();
  }

  /** Whether an entry that may still write heap memory (see {@link #add}) has not settled. */
  boolean fillingHeap() {
    return fillingHeap > 0;
  }

  /** Adds an entry that settles once {@code ends} ends have arrived. */
  Entry add(Settle settle, int ends) {
    return add(settle, ends, false);
  }

  /**
   * Adds an entry that settles once {@code ends} ends have arrived; {@code fillsHeap}: until then
   * it may write heap memory (a copy into a heap buffer, a device-side wait for another stream).
   */
  Entry add(Settle settle, int ends, boolean fillsHeap) {
    Entry entry = new Entry(mailbox, settle, ends, fillsHeap);
    if (entries == null) {
      entries = new ArrayDeque<>();
    }
    entries.addLast(entry);
    if (fillsHeap) {
      fillingHeap++;
    }
    return entry;
  }

  /** Removes {@code entry}, the last one added, whose submission was declined. */
  void dropLast(Entry entry) {
    if (entries.peekLast() == entry) {
      removed(entries.pollLast());
    }
  }

  private void removed(Entry entry) {
    if (entry.fillsHeap) {
      fillingHeap--;
    }
  }

  /** Adds an entry with nothing to wait for: it settles once every entry before it has. */
  void addSettled(Settle settle) {
    Entry entry = add(settle, 0);
    if (entries.peekFirst() == entry) {
      settleFront();
    }
  }

  /** Applies one end, then settles every entry at the front whose ends have all arrived. */
  void ended(Ended ended) {
    Entry entry = ended.entry();
    entry.pending--;
    if (ended.failure() != null && entry.failure == null) {
      entry.failure = ended.failure();
    }
    if (ended.deviceNanos() != 0) {
      entry.deviceNanos = ended.deviceNanos();
    }
    settleFront();
  }

  private void settleFront() {
    Entry front;
    while ((front = entries.peekFirst()) != null && front.pending <= 0) {
      removed(entries.pollFirst());
      front.settle.settle(front.deviceNanos, front.failure);
    }
  }

  /** Settles every entry with {@code failure}: the stream stopped and no more ends will come. */
  void abandon(DeviceExecutionException failure) {
    Entry front;
    while (entries != null && (front = entries.pollFirst()) != null) {
      removed(front);
      front.settle.settle(System.nanoTime(), failure);
    }
  }
}
