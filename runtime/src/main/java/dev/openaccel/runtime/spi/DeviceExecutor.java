package dev.openaccel.runtime.spi;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.Stream;
import java.util.List;
import java.util.Objects;

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

  /**
   * One device work that does what the first of {@code templates} do, in order, for the replays of
   * a graph on {@code device}, or null (the default) if the first cannot be fused with the one
   * after it. When the engine makes a graph it calls this for each run of two or more device works
   * that follow each other on one of the graph's lanes (captured templates, see {@link
   * DeviceWork#replica}), then again on what follows the part fused, or the first work not fused; a
   * replay then enqueues one {@link DeviceWork#replica} of the fused work instead of one of each
   * (as an OpenCL command buffer records a run of commands once and enqueues it with one call). The
   * fused work is a template too, never submitted nor discarded: what its replicas share (a
   * recorded command buffer) lives as long as it is reachable, and the backend frees it after that,
   * or when it closes. Called on the thread that makes the graph; must be thread-safe.
   */
  default Fusion fuse(Device device, List<DeviceWork> templates) {
    return null;
  }

  /**
   * Device work that replaces the first {@code count} templates given to {@link #fuse}.
   *
   * @param work the fused template
   * @param count how many templates it replaces, from the first: at least 2
   * @param how how a replay runs it, for {@code Graph.description()} and the log, e.g. {@code "one
   *     OpenCL command buffer"}
   */
  record Fusion(DeviceWork work, int count, String how) {
    /**
     * @throws IllegalArgumentException if {@code count} is below 2
     */
    public Fusion {
      Objects.requireNonNull(work, "work");
      Objects.requireNonNull(how, "how");
      if (count < 2) {
        throw new IllegalArgumentException("a fusion replaces 2 works or more, got " + count);
      }
    }
  }

  /** Every item runs as Java code on the device thread; there is no device queue. */
  static DeviceExecutor synchronous() {
    return stream -> null;
  }
}
