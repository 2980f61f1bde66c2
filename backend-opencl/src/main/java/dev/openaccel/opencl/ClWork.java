package dev.openaccel.opencl;

import dev.openaccel.runtime.spi.DeviceWork;

/**
 * One OpenCL command a stream hands to its queue: a kernel launch or a copy. Built at the user's
 * call (where its arguments are checked and its buffers' uses taken), enqueued later on the
 * stream's actor, in stream order. The queue keeps the work reachable until its command ends, so
 * host memory a command reads or writes stays alive until then.
 */
interface ClWork extends DeviceWork {

  /**
   * Enqueues the command on {@code queue}, storing its event at {@code eventAddress} (a {@code
   * cl_event*}), or creating none when it is 0.
   *
   * @return the OpenCL error code, 0 on success
   */
  int enqueue(long queue, long eventAddress);

  /**
   * What traces report: the kernel's launch name, or the copy ({@code copyToDevice}, ...); null for
   * a command that is not traced (a barrier).
   */
  String name();

  /** Called once after {@link #enqueue} returned or threw: gives back the buffers' uses. */
  void enqueued();

  /**
   * The event whose {@code CL_PROFILING_COMMAND_START} begins the command's trace span, given the
   * event OpenCL gave for the command ({@code event}): that one, unless the command is several (a
   * checked kernel and the read of its error buffer).
   */
  default long spanStart(long event) {
    return event;
  }

  /**
   * Called once the command has ended successfully, before {@link #ended}: a failure found in what
   * the device produced (a checked kernel's out-of-bounds access), which fails the command, or
   * null.
   */
  default RuntimeException failureOnDevice() {
    return null;
  }

  /**
   * Called once when the command has ended, before the stream hears of it: {@code completed} false
   * if it failed or was never enqueued. Releases what the command held (staging memory).
   */
  default void ended(boolean completed) {}

  /**
   * Never enqueued (its stream stopped first): gives back what {@link #enqueued} and {@link #ended}
   * would.
   */
  @Override
  default void discard() {
    enqueued();
    ended(false);
  }
}
