package dev.openaccel.opencl;

import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Stream;

/** Where device-kernel launches go: the backend's memory (for buffer arguments) and its engine. */
interface LaunchTarget {

  /**
   * The region behind {@code buffer}, an argument of a launch being built.
   *
   * @throws IllegalArgumentException if it is not a buffer of this accelerator's opencl backend
   * @throws IllegalStateException if it is closed
   */
  ClRegion region(DeviceBuffer buffer, String use);

  /**
   * Puts {@code launch} into {@code stream}'s order; from this call on the launch is the engine's,
   * which gives its buffers' uses back (when it is enqueued, or discarded if it never will be, also
   * when this call throws).
   *
   * @throws IllegalArgumentException if {@code stream} is not an opencl stream of this accelerator
   * @throws IllegalStateException if the stream accepts no more work
   */
  void enqueue(Stream stream, ClLaunch launch);
}
