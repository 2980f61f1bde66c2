package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.GraphNode;
import java.util.List;
import java.util.Set;

/**
 * A node of a capture or graph: its public description and the work a replay enqueues for it.
 * Internal; immutable once the capture ended.
 *
 * @param node what the graph shows of it
 * @param work what a replay does for it
 * @param buffers the buffers it uses, which a launch checks are open
 */
record CapturedNode(GraphNode node, CapturedNode.Work work, List<Buffer> buffers) {
  private static final Set<String> COPIES = Set.of("copy", "copyToDevice", "copyToHost");

  /** What a replay does for a node. */
  sealed interface Work permits Run, Device, Record, Mark, Wait {}

  /** Java code run again as it is at each replay: a launch, or a copy of engine memory. */
  record Run(WorkItem.HostWork item) implements Work {}

  /**
   * Device work, of which each replay enqueues a {@code replica}; the template never runs, and was
   * discarded when the capture took it ({@link dev.openaccel.runtime.spi.DeviceWork#replica}).
   */
  record Device(WorkItem.DeviceCommand template) implements Work {}

  /** A record of an event, which each replay records again. */
  record Record(EngineEvent event) implements Work {}

  /** An unnamed record that a wait of another lane refers to (a captured {@code waitStream}). */
  enum Mark implements Work {
    INSTANCE
  }

  static final Mark MARK = Mark.INSTANCE;

  /** A wait for the record made by node {@code record} in the same replay. */
  record Wait(int record) implements Work {}

  /**
   * What a replay does for {@code item}, diverted from a captured stream.
   *
   * @throws IllegalStateException if it cannot be replayed: a {@code submit}'s kernel (its result
   *     would be one replay's), a wait for an external stage, a synchronize
   * @throws UnsupportedOperationException for device work its backend cannot replay
   */
  static Work workOf(WorkItem item) {
    if (item instanceof WorkItem.Launch launch) {
      return new Run(launch);
    }
    if (item instanceof WorkItem.HostKernel kernel && kernel.result() == null) {
      return new Run(kernel);
    }
    if (item instanceof WorkItem.DeviceCommand command) {
      return new Device(command);
    }
    throw new IllegalStateException(Capture.NOT_PERMITTED + describe(item));
  }

  /** A copy's node is named as the copy ({@code "copy"}, ...); every other is a kernel's. */
  static GraphNode.Kind kindOf(String name) {
    return COPIES.contains(name) ? GraphNode.Kind.COPY : GraphNode.Kind.KERNEL;
  }

  private static String describe(WorkItem item) {
    if (item instanceof WorkItem.HostKernel kernel) {
      return "submit('" + kernel.name() + "'), whose result would belong to one replay";
    }
    if (item instanceof WorkItem.Wait) {
      return "waitFor(a stage), which is outside the capture";
    }
    if (item instanceof WorkItem.Sync) {
      return "synchronizeAsync()";
    }
    return String.valueOf(item);
  }
}
