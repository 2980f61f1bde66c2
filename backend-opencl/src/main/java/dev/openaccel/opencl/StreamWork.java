package dev.openaccel.opencl;

import dev.openaccel.runtime.Stream;

/**
 * How the backend puts OpenCL commands into a stream's order: the seam between the public launch
 * API and the runtime's engine.
 */
interface StreamWork {

  /**
   * Enqueues {@code work} on {@code stream}: it goes to the stream's queue after the stream's
   * earlier work, and its end (or failure) is the stream's progress.
   *
   * @throws IllegalArgumentException if {@code stream} is not a stream of this backend
   */
  void enqueue(Stream stream, ClWork work);
}
