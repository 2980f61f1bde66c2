package dev.openaccel.runtime.spi;

import dev.openaccel.runtime.Stream;

/**
 * How a backend's devices execute a stream's work: the strategy under the engine's stream actors.
 * The engine keeps ordering, waits on events of other backends, generations, failure semantics and
 * tracing for every backend; the executor decides only where device work runs.
 *
 * <ul>
 *   <li>{@link #synchronous()} (OpenReg): every item is Java code that the stream's actor runs on
 *       the device's dispatcher; an item is complete when it returns.
 *   <li>An asynchronous executor gives each stream a {@link DeviceQueue}: the actor submits device
 *       work and event markers in order and goes on; completions come back through callbacks; a
 *       wait on a marker of the same executor becomes a device-side wait. Java kernels on such a
 *       stream run in stream order on the device thread once the stream's earlier device work has
 *       ended, like {@code cudaLaunchHostFunc}.
 * </ul>
 */
public interface DeviceExecutor {

  /**
   * The device queue of a new stream, or null if this executor runs everything as Java code on the
   * device thread. Called once per stream, on the stream's actor, before its first item.
   */
  DeviceQueue open(Stream stream);

  /** Every item runs as Java code on the device thread; there is no device queue. */
  static DeviceExecutor synchronous() {
    return stream -> null;
  }
}
