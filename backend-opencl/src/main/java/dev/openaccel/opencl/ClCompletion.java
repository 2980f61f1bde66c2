package dev.openaccel.opencl;

/**
 * Where the end of one enqueued OpenCL command is reported: exactly one of the two methods is
 * called, once, from any thread (usually an OpenCL runtime thread running the event callback, or
 * the enqueuing thread when the command is already complete or could not be enqueued).
 */
interface ClCompletion {

  /** The command completed; {@code deviceTimestampNanos} is its end on the device's clock. */
  void complete(long deviceTimestampNanos);

  /** The command failed or could not be enqueued. */
  void fail(Throwable cause);
}
