package dev.openaccel.runtime.spi;

/**
 * One stream's in-order queue on a device with its own command queue ({@code cl_command_queue},
 * {@code CUstream}). The stream's actor submits the stream's device work here in stream order and
 * goes on; completions arrive later through {@link Completion}.
 *
 * <p>Confined to the stream's actor: the engine calls it from one thread at a time.
 */
public interface DeviceQueue {

  /** Submits {@code work}; {@code done} is called once it has ended. */
  void submit(DeviceWork work, Completion done);

  /**
   * Submits a marker that ends once all work submitted before it has ended; {@code done} gets the
   * device time at which it ended.
   */
  Marker mark(Completion done);

  /**
   * Makes the work submitted after this call wait on the device for {@code marker}, without a host
   * round trip; {@code done} is called once the wait itself has ended.
   *
   * @return false, without calling {@code done}, if this queue cannot wait for that marker on the
   *     device (another executor's marker, or one already released): the engine then parks the
   *     stream until the record completes
   */
  boolean waitFor(Marker marker, Completion done);

  /**
   * The stream has submitted all it has for now: its queue is empty, it parked, or it yields its
   * thread. The engine calls it after every run of submissions, so a queue that reports ends lazily
   * (one completion callback for several commands) may leave commands to it, and must make sure now
   * that every command submitted so far will be reported. The default does nothing.
   */
  default void flush() {}

  /** Releases the queue; called once, when the stream's actor stops. */
  void close();
}
