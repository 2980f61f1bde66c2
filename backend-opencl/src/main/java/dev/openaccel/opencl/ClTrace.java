package dev.openaccel.opencl;

import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.trace.TraceEvent;
import dev.openaccel.runtime.trace.Tracer;

/**
 * Publishes a stream's device commands on the trace bus as kernel spans when they are reported: a
 * command with a report of its own ends at {@link System#nanoTime()} in it; another, completed by a
 * later command's report, that long before as the device's clock says; each starts its device
 * duration before its end (the device's clock may differ from the host's; its durations do not).
 *
 * <p>The callbacks of one queue's commands may run at the same time: on OpenCL runtime threads, and
 * on the stream's thread when an event has already completed as its callback is set. Subscribers
 * pair a stream's {@code KernelStarted} with the {@code KernelFinished} that follows it (a stream
 * runs one kernel at a time), so each span's two events are published under this object's monitor,
 * never interleaved with another span of the same stream. Thread-safe.
 */
final class ClTrace {
  /** Traces nothing. */
  static final ClTrace NONE = new ClTrace(null, null);

  private final Stream stream;
  private final Tracer tracer;

  ClTrace(Stream stream, Tracer tracer) {
    this.stream = stream;
    this.tracer = tracer;
  }

  boolean enabled() {
    return tracer != null && tracer.enabled();
  }

  /**
   * Publishes the span of the command {@code name}, from {@code startEvent}'s start to {@code
   * event}'s end ({@link ClWork#spanStart}), if tracing is on.
   */
  void ended(String name, long startEvent, long event, int status) {
    if (name != null && enabled()) {
      span(name, startEvent, event, status < 0, System.nanoTime());
    }
  }

  /**
   * Publishes the span of {@code event}, the command {@code name}, if tracing is on, when a later
   * report that ended at {@code reportEnd} on the device completes it: its end is now less the time
   * its device end came before the report's, both on the device's clock. Without profiling the
   * times read no duration and no earlier end: the span is an instant, now.
   */
  void endedBefore(String name, long startEvent, long event, boolean failed, long reportEnd) {
    if (name != null && enabled()) {
      span(
          name,
          startEvent,
          event,
          failed,
          System.nanoTime() - Math.max(0, reportEnd - ClCallbacks.endNanos(event)));
    }
  }

  /** The span from {@code startEvent} to {@code event}, ending at {@code finished} (host clock). */
  private void span(String name, long startEvent, long event, boolean failed, long finished) {
    long started = finished - ClCallbacks.durationNanos(startEvent, event);
    publish(
        new TraceEvent.KernelStarted(stream.device(), stream.id(), name, started),
        new TraceEvent.KernelFinished(stream.device(), stream.id(), name, failed, finished));
  }

  /** Publishes one span's two events back to back on this stream. */
  synchronized void publish(TraceEvent.KernelStarted started, TraceEvent.KernelFinished finished) {
    tracer.publish(started);
    tracer.publish(finished);
  }
}
