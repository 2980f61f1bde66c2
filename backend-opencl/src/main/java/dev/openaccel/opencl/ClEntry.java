package dev.openaccel.opencl;

import static org.lwjgl.opencl.CL10.clReleaseEvent;

import dev.openaccel.runtime.spi.Completion;

/**
 * A command submitted to a {@link ClQueue} and not yet known to have ended, as {@link ClPending}
 * keeps it. Immutable.
 *
 * @param seq its place in the queue (1 for the first command)
 * @param work the command; null for a marker (an event record, or a marker that reports others)
 * @param done told of its end
 * @param marker the record's marker, for an event record; else null
 * @param traced the event kept for its trace span, when tracing and it has no report of its own; 0
 *     otherwise
 */
record ClEntry(long seq, ClWork work, Completion done, ClMarker marker, long traced) {

  /** This entry without its trace event, which the caller releases ({@link #releaseTraced}). */
  ClEntry untraced() {
    return traced == 0 ? this : new ClEntry(seq, work, done, marker, 0L);
  }

  /** Releases the event kept for its trace span, if any. */
  void releaseTraced() {
    if (traced != 0) {
      clReleaseEvent(traced);
    }
  }

  /** What a failure of it on the device names. */
  String what() {
    return work == null ? "marker on the device" : work + " on the device";
  }
}
