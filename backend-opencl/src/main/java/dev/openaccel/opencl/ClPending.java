package dev.openaccel.opencl;

import dev.openaccel.runtime.spi.Completion;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The commands of one {@link ClQueue} not yet known to have ended, and how they will be reported
 * ({@link ClReports} states the rules; {@link ClBatch} which command of a run gets a report).
 *
 * <p>Owns, under this object's monitor, its one lock: the entries not yet completed, added by the
 * thread holding the queue's enqueue lock ({@code ClQueue.order}: the stream's actor, or a thread
 * arming a report marker), taken off by the thread a report arrives on ({@link #take}) and stripped
 * of their trace events by the actor at {@link #close}; {@code submitted}, the {@link ClBatch},
 * {@code sent}, {@code closed}, {@code lost} and {@code failedUpTo}, written only by a thread that
 * holds the enqueue lock too (the actor; a thread arming a report marker; a thread flushing the
 * queue for a barrier of another queue, for {@code sent} and the loss); {@code outstanding} and
 * {@code reportsAskedFor}, counted up by whoever asks for a report (under the enqueue lock, or a
 * thread that makes a marker report itself, {@link #reportPromptly}), and {@code outstanding}
 * counted down by the thread a report arrives on.
 *
 * <p>Lock order: the enqueue lock before this monitor, never the reverse. The monitor is held only
 * briefly, never across the enqueue of a command, so that a report never waits for the driver to
 * take one (on NVIDIA's platform a waiting thread blocked on a monitor held across each enqueue
 * cost the enqueuing thread a futex wake per command); only a marker that reports others is
 * enqueued under it ({@link #rearm}, with the enqueue lock held). A method called without the
 * enqueue lock returns null where such a marker is needed ({@link #take}). Nothing here runs a
 * completion or a watch: what to run outside the locks is returned.
 */
final class ClPending {
  static final Runnable NOTHING = () -> {};

  /** What a report took off the queue ({@link #take}). */
  record Ended(List<ClEntry> entries, long failedUpTo, boolean afterClose, Runnable arm) {}

  private final ClQueue queue;
  private final ClReports reports;
  private final ArrayDeque<ClEntry> entries = new ArrayDeque<>();
  private final ClBatch batch = new ClBatch();
  private long submitted;
  private long sent; // submitted at the last clFlush
  private int outstanding;
  private long reportsAskedFor; // callbacks asked for (or waiting threads), ever
  private boolean closed; // the handle is released: reports touch the queue no more
  private OpenClException lost; // a clFlush failed: sticky, see ClQueue's class comment
  private long failedUpTo; // entries up to this seq had their completion failed when it was lost

  ClPending(ClQueue queue, ClReports reports) {
    this.queue = queue;
    this.reports = reports;
  }

  /** How many reports of its own the queue has asked OpenCL for so far (callbacks or waits). */
  synchronized long reportsAskedFor() {
    return reportsAskedFor;
  }

  /** The error that lost the queue, or null; it changes only under the enqueue lock. */
  synchronized OpenClException lost() {
    return lost;
  }

  /** Commands submitted so far; it changes only under the enqueue lock. */
  synchronized long submitted() {
    return submitted;
  }

  /**
   * Decides how a command about to be enqueued will be reported ({@code spanned}: it is a kernel or
   * a copy, not a barrier), into {@code out}. The caller holds the enqueue lock.
   */
  synchronized void admit(boolean spanned, ClQueue.Admission out) {
    out.refused = lost; // set only under the enqueue lock: it cannot change before the enqueue
    out.prompt = lost != null ? NOTHING : keepTailPrompt();
    out.watched = lost == null && spanned && batch.startsReport(outstanding);
  }

  /**
   * Before a command that is not a marker is enqueued behind the last one, which may then end long
   * before anything behind it is reported: a marker there gets its own callback (unless a barrier
   * reports it), a barrier there hands its marker's report back ({@link ClBarrier#handBack}).
   */
  private Runnable keepTailPrompt() {
    ClEntry last = entries.peekLast();
    if (last == null) {
      return NOTHING;
    }
    if (last.work() instanceof ClBarrier barrier) {
      return barrier::handBack;
    }
    return last.marker() == null ? NOTHING : watchUnreported(last.marker());
  }

  /** Records a command just enqueued; returns its place. The caller holds the enqueue lock. */
  synchronized long enqueued(
      ClWork command, Completion done, boolean spanned, boolean watched, long traced) {
    long seq = ++submitted;
    if (spanned) {
      batch.counted();
    }
    entries.addLast(new ClEntry(seq, command, done, null, traced));
    if (watched) {
      outstanding++;
      reportsAskedFor++;
    }
    return seq;
  }

  /**
   * Records {@code marker}, a record's, just enqueued at {@link #submitted} + 1; returns what to
   * run outside the locks. First in its run, it gets its own callback; later in a run, a barrier
   * that waits for it may report it, or the next command or flush arms it (no callback inside a
   * hop). The caller holds the enqueue lock.
   */
  synchronized Runnable marked(ClMarker marker, Completion done) {
    boolean first = batch.startsReport(outstanding);
    long seq = ++submitted;
    assert seq == marker.seq() : "marker " + marker.seq() + " recorded as " + seq;
    batch.counted();
    entries.addLast(new ClEntry(seq, null, done, marker, 0L));
    return first ? armIfIdle(true) : NOTHING;
  }

  /**
   * Marker {@code marker} of this queue is no longer reported by a barrier: it gets its own
   * callback if it has not been reported yet.
   */
  void reportPromptly(ClMarker marker) {
    Runnable watch;
    synchronized (this) {
      ClEntry first = entries.peekFirst();
      watch = first == null || first.seq() > marker.seq() ? NOTHING : watchUnreported(marker);
    }
    watch.run();
  }

  /** A callback for {@code marker}, unless a barrier reports it or one is registered already. */
  private Runnable watchUnreported(ClMarker marker) {
    if (marker.reported() || !marker.claimWatch()) {
      return NOTHING;
    }
    outstanding++;
    reportsAskedFor++;
    return () -> reports.watchMarker(marker);
  }

  /**
   * Whether a barrier enqueued now runs as soon as the marker it waits for ends (only then does it
   * report that marker): nothing but markers is pending in front of it, and markers end as soon as
   * the work before them, which has all ended, has.
   */
  synchronized boolean runsAtOnce() {
    for (ClEntry entry : entries) {
      if (entry.marker() == null) {
        return false;
      }
    }
    return true;
  }

  /**
   * The stream has submitted all it has: makes sure every command so far will be reported; returns
   * what to run outside the locks. The caller holds the enqueue lock.
   */
  synchronized Runnable flushed() {
    batch.flushedAt(submitted);
    return armIfIdle(true);
  }

  /**
   * True if every command up to {@code seq} was flushed, or there is nothing to flush any more (the
   * queue is released).
   *
   * @throws OpenClException if the queue is lost
   */
  synchronized boolean flushedUpTo(long seq) {
    if (lost != null) {
      throw lost;
    }
    return closed || sent >= seq;
  }

  /** A {@code clFlush} made with {@code upTo} commands submitted succeeded (enqueue lock held). */
  synchronized void sent(long upTo) {
    sent = Math.max(sent, upTo);
  }

  /**
   * A {@code clFlush} failed with {@code failed}: the queue is lost. Returns the entries held,
   * whose completions the caller fails; a later report of these skips their completions. The caller
   * holds the enqueue lock.
   */
  synchronized List<ClEntry> lose(OpenClException failed) {
    lost = failed;
    failedUpTo = submitted;
    return new ArrayList<>(entries);
  }

  /**
   * The queue is being released (the caller holds the enqueue lock; no OpenCL call follows): a
   * marker with a callback behind the commands left, whatever is outstanding, since a report still
   * to come may cover only commands before it, and once the handle is released no report arms a
   * marker, so the commands behind would never end and keep what they hold (a heap copy's staging
   * memory). A fresh marker, since a record's own may be released by then. The entries' trace
   * events are released (their spans are not published). Returns what to run once the queue is
   * released.
   */
  synchronized Runnable close() {
    Runnable arm = entries.isEmpty() ? NOTHING : rearm();
    closed = true;
    ArrayDeque<ClEntry> left = new ArrayDeque<>(entries.size());
    for (ClEntry entry : entries) {
      entry.releaseTraced();
      left.addLast(entry.untraced());
    }
    entries.clear();
    entries.addAll(left);
    return arm;
  }

  /**
   * The command {@code seq} ended: takes it and every command before it off the queue, and decides
   * how those left will be reported ({@link Ended#arm}: null if a marker is needed, which the
   * caller arms under the enqueue lock, {@link #armAfterReport}, once it completed what ended).
   *
   * @param fromCallback true for this queue's own callback (one fewer outstanding)
   */
  synchronized Ended take(long seq, boolean fromCallback) {
    if (fromCallback) {
      outstanding--;
    }
    List<ClEntry> ended = new ArrayList<>();
    while (!entries.isEmpty() && entries.peekFirst().seq() <= seq) {
      ended.add(entries.pollFirst());
    }
    return new Ended(ended, failedUpTo, closed, armAfterReport(false));
  }

  /** {@link #take}'s decision again, now that the caller holds the enqueue lock. */
  synchronized Runnable armAfterReport() {
    return armAfterReport(true);
  }

  /**
   * A marker could not be watched (released: the engine is done with it): a fresh marker behind it
   * reports it instead. The caller holds the enqueue lock.
   */
  synchronized Runnable rearmInstead() {
    outstanding--;
    return rearm();
  }

  /**
   * What a report arms: nothing while the stream is still submitting ({@link
   * ClBatch#submittedSinceFlush}), else {@link #armIfIdle}; null if that would enqueue a marker and
   * the caller does not hold the enqueue lock.
   */
  private Runnable armAfterReport(boolean ordered) {
    ClEntry last = entries.peekLast();
    return last != null && batch.submittedSinceFlush(last.seq()) ? NOTHING : armIfIdle(ordered);
  }

  /**
   * If no callback is outstanding, decides how the commands left will be reported, by their last
   * one (its end implies the others'): a marker a barrier reports needs nothing; another marker
   * gets a callback; other commands a marker behind them. Returns what to run outside the locks, or
   * null if a marker is to be enqueued and the caller does not hold the enqueue lock ({@code
   * ordered} false).
   */
  private Runnable armIfIdle(boolean ordered) {
    ClEntry last = entries.peekLast();
    if (outstanding > 0 || last == null || (last.marker() != null && last.marker().reported())) {
      return NOTHING;
    }
    if (last.marker() == null) {
      return ordered ? rearm() : null;
    }
    return watchUnreported(last.marker());
  }

  /**
   * A marker with a callback behind the commands left (nothing if none can be enqueued). The caller
   * holds the enqueue lock.
   */
  private Runnable rearm() {
    long handle = closed ? 0L : queue.enqueueReportMarker();
    if (handle == 0L) {
      return NOTHING;
    }
    long rearm = ++submitted;
    outstanding++;
    reportsAskedFor++;
    return () -> reports.watch(handle, rearm, null);
  }
}
