package dev.openaccel.opencl;

import dev.openaccel.runtime.Stream;

/** Where device-kernel launches go: the backend's memory (for buffer arguments) and its engine. */
interface LaunchTarget {

  /** The memory whose buffers a launch may take. */
  ClDeviceMemory memory();

  /**
   * Puts {@code launch} into {@code stream}'s order.
   *
   * @throws IllegalArgumentException if {@code stream} is not an opencl stream of this accelerator
   */
  void enqueue(Stream stream, ClLaunch launch);
}
