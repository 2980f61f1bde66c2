package dev.openaccel.runtime;

import java.util.List;
import java.util.Objects;

/**
 * One node of a {@link Graph}: what was enqueued, on which of the captured streams, and the nodes
 * it waits for.
 *
 * @param index the node's place in the graph, from 0, in capture order
 * @param kind what the node does
 * @param name the kernel's name, the copy's ({@code "copy"}, {@code "copyToDevice"}, {@code
 *     "copyToHost"}), or for a record or a wait the event's description
 * @param lane which captured stream it runs on: 0 for the capturing stream, then one per stream
 *     that joined the capture, in the order they joined; a replay runs lane 0 on the stream it is
 *     launched on and each other lane on a stream of its own
 * @param device the device of its lane
 * @param dependencies the indices of the nodes it runs after: the node before it on its lane, and
 *     for a wait, the record it waits for
 */
public record GraphNode(
    int index, Kind kind, String name, int lane, Device device, List<Integer> dependencies) {

  /** What a node does. */
  public enum Kind {
    /** A Java kernel, a Java kernel over buffers, or a backend's device kernel. */
    KERNEL,
    /** A copy between the host and a device buffer, or between device buffers. */
    COPY,
    /** A record of an event: a replay records the event, as {@link Event#record(Stream)} does. */
    RECORD,
    /** A wait of its lane for a record of another lane. */
    WAIT
  }

  /** Checks and copies the fields. */
  public GraphNode {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(device, "device");
    dependencies = List.copyOf(dependencies);
  }
}
