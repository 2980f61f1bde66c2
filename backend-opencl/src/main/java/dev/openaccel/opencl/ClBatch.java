package dev.openaccel.opencl;

/**
 * How a {@link ClQueue} batches the reports of a stream's submissions: which command or record gets
 * a report of its own, and whether a report that leaves commands behind arms one for them.
 *
 * <p>A stream submits in runs: it flushes ({@link ClQueue#flush}) once it has submitted all it has
 * or yields its thread. The first command or record of a run gets a report of its own if none is
 * outstanding, and in a long run so does one {@value #DEFERRED_AT_MOST} or more after the last that
 * got one; the others are reported by a later report, or by what the flush that ends the run arms.
 * So a busy stream asks OpenCL for an event per run and per {@value #DEFERRED_AT_MOST} commands of
 * a long one, not per command or per report (an event per command halved NVIDIA's enqueue rate).
 *
 * <p>Owns: the count of the current run and the place of the stream's last flush. Takes no lock: it
 * is part of its queue's {@link ClPending} and touched only under that object's monitor. Written
 * only by the thread that also holds the queue's enqueue lock ({@code ClQueue.order}): the stream's
 * actor as it submits or flushes.
 */
final class ClBatch {
  /**
   * Commands a stream submits after its last flush, or after the last of them that got a report of
   * its own, before another one gets one: a stream whose producer keeps it busy flushes only once
   * it runs dry or yields, and its commands must not wait that long to be completed.
   */
  static final int DEFERRED_AT_MOST = 64;

  private long flushed; // submitted at the stream's last flush: it arms the commands after it
  private int run; // commands and markers since then, or since one of them got a report

  /**
   * Whether the command or marker being submitted gets a report of its own: none is outstanding,
   * and it is the first since the stream's last flush, or comes {@value #DEFERRED_AT_MOST} or more
   * after it or after the last command of its run that got one (which then starts the count again).
   */
  boolean startsReport(int outstanding) {
    if (outstanding > 0 || (run > 0 && run < DEFERRED_AT_MOST)) {
      return false;
    }
    run = 0;
    return true;
  }

  /** A command or marker (not a barrier, nor a marker that reports others) joined the run. */
  void counted() {
    run++;
  }

  /** The stream flushed with {@code submitted} commands submitted: the run ends. */
  void flushedAt(long submitted) {
    flushed = submitted;
    run = 0;
  }

  /**
   * True if command {@code seq} came after the stream's last flush: the stream is still submitting,
   * and its next flush (once it has submitted all it has) or a command {@value #DEFERRED_AT_MOST}
   * after the last reported arms its report; no marker per report while it submits.
   */
  boolean submittedSinceFlush(long seq) {
    return seq > flushed;
  }
}
