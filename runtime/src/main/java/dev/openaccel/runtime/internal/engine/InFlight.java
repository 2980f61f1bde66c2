package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.spi.Completion;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayDeque;

/**
 * The items a stream has handed to its device queue and not yet seen end, in submission order.
 * Device callbacks may end them in any order and on any thread; an end is written into its entry,
 * and the stream's actor hears of ends through one message per batch ({@code signal}, sent only
 * when no signal is pending), then settles items strictly from the front, so progress, failures and
 * records are applied in stream order. A device that reports a run of commands at once costs the
 * actor one message, not one per command, and an end allocates nothing.
 *
 * <p>Owns: the queue of entries and the count of entries that may still fill heap memory, written
 * only by the actor; each entry's outcome (its count of ends still to come, its device time and its
 * first failure), written by whichever thread ends it before it counts the end down and read by the
 * actor once the count is zero; and the flag that says a signal is pending, set by the thread whose
 * end finishes an entry and cleared by the actor before it settles.
 */
final class InFlight {
  private static final VarHandle PENDING;
  private static final VarHandle FAILURE;
  private static final VarHandle SIGNALED;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      PENDING = lookup.findVarHandle(Entry.class, "pending", int.class);
      FAILURE = lookup.findVarHandle(Entry.class, "failure", DeviceExecutionException.class);
      SIGNALED = lookup.findVarHandle(InFlight.class, "signaled", boolean.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** How an ended entry settles, in order: counts, records, waits, syncs. */
  interface Settle {
    void settle(long deviceNanos, DeviceExecutionException failure);
  }

  /** One submitted item; its {@link Completion} is what the device queue calls, on any thread. */
  static final class Entry implements Completion {
    private final InFlight owner;
    private final Settle settle;
    private final boolean fillsHeap;
    private volatile int pending; // ends still to arrive: the device's, and for waits the record's
    private volatile long deviceNanos; // the last non-zero end time reported
    private volatile DeviceExecutionException failure; // the first failure reported

    private Entry(InFlight owner, Settle settle, int pending, boolean fillsHeap) {
      this.owner = owner;
      this.settle = settle;
      this.pending = pending;
      this.fillsHeap = fillsHeap;
    }

    @Override
    public void complete(long nanos) {
      if (nanos != 0) {
        deviceNanos = nanos;
      }
      counted();
    }

    @Override
    public void fail(Throwable cause) {
      FAILURE.compareAndSet(this, null, Failures.asExecutionFailure(cause));
      counted();
    }

    /** One end arrived (after its outcome was written): the last one tells the actor. */
    private void counted() {
      if ((int) PENDING.getAndAdd(this, -1) == 1) {
        owner.signalOnce();
      }
    }

    /** All its ends arrived (a backend that reports one too many drives the count below 0). */
    private boolean allEndsArrived() {
      return pending <= 0;
    }
  }

  private ArrayDeque<Entry> entries; // created with the first entry: an idle stream has none
  private final Runnable signal;
  private int fillingHeap; // entries in the queue that may still write heap memory
  private volatile boolean signaled; // a signal is on its way to the actor, which has not settled

  /**
   * @param signal tells the actor that entries ended, so that it calls {@link #settleEnded} (a
   *     tell; called on any thread, at most once until the actor's next {@link #settleEnded})
   */
  InFlight(Runnable signal) {
    this.signal = signal;
  }

  private void signalOnce() {
    if (!signaled && !(boolean) SIGNALED.getAndSet(this, true)) {
      signal.run();
    }
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
    Entry entry = new Entry(this, settle, ends, fillsHeap);
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

  /**
   * The actor's part of a signal: settles every entry at the front whose ends have all arrived.
   * Clears the flag first, so that an end arriving while it settles signals again.
   */
  void settleEnded() {
    SIGNALED.setVolatile(this, false);
    if (entries != null) {
      settleFront();
    }
  }

  private void settleFront() {
    Entry front;
    while ((front = entries.peekFirst()) != null && front.allEndsArrived()) {
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
