package dev.openaccel.samples.report;

/**
 * A stretch of time a stream sat idle waiting for another stream's work, and the kernel whose end
 * released it (see {@link Waits}).
 *
 * @param device the waiting stream's device index
 * @param streamId the waiting stream's id
 * @param startNanos when the waiting stream's previous kernel or collective operation ended
 * @param endNanos when its next kernel or collective operation started
 * @param cause the kernel, on a stream it waited on, whose end released it
 */
public record Wait(int device, long streamId, long startNanos, long endNanos, Span cause) {
  public Wait {
    java.util.Objects.requireNonNull(cause, "cause");
    if (endNanos < startNanos) {
      throw new IllegalArgumentException(
          "wait on stream "
              + streamId
              + " ends at "
              + endNanos
              + " before it starts at "
              + startNanos);
    }
  }

  public long durationNanos() {
    return endNanos - startNanos;
  }
}
