package dev.openaccel.samples.report;

import java.util.Objects;

/**
 * One lane of a timeline: a stream of a device, with a human name for it.
 *
 * @param device the device index
 * @param deviceName the device as text, e.g. {@code openreg:0}
 * @param streamId the stream's id on that device
 * @param priority the stream's priority (higher runs first on its device)
 * @param label what the stream does, e.g. {@code copy-in} or {@code compute 1}
 */
public record Track(int device, String deviceName, long streamId, int priority, String label) {
  public Track {
    Objects.requireNonNull(deviceName, "deviceName");
    Objects.requireNonNull(label, "label");
  }

  /** A lane of a stream of priority 0. */
  public Track(int device, String deviceName, long streamId, String label) {
    this(device, deviceName, streamId, 0, label);
  }

  /** The label with the stream id: {@code copy-in (stream 65)}. */
  public String title() {
    return label + " (stream " + streamId + ")";
  }

  /** Whether {@code wait} happened on this track's stream. */
  public boolean holds(Wait wait) {
    return wait.device() == device && wait.streamId() == streamId;
  }

  /** Whether {@code replay} was launched on this track's stream. */
  public boolean holds(ReplaySpan replay) {
    return replay.device() == device && replay.streamId() == streamId;
  }

  /** Whether {@code collective} was enqueued on this track's stream. */
  public boolean holds(Collective collective) {
    return collective.device() == device && collective.streamId() == streamId;
  }

  /** Whether {@code span} ran on this track's stream. */
  public boolean holds(Span span) {
    return span.device() == device && span.streamId() == streamId;
  }
}
