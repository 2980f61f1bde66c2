package dev.openaccel.samples.report;

import java.util.Objects;

/**
 * One lane of a timeline: a stream of a device, with a human name for it.
 *
 * @param device the device index
 * @param deviceName the device as text, e.g. {@code openreg:0}
 * @param streamId the stream's id on that device
 * @param label what the stream does, e.g. {@code copy-in} or {@code compute 1}
 */
public record Track(int device, String deviceName, long streamId, String label) {
  public Track {
    Objects.requireNonNull(deviceName, "deviceName");
    Objects.requireNonNull(label, "label");
  }

  /** Whether {@code span} ran on this track's stream. */
  public boolean holds(Span span) {
    return span.device() == device && span.streamId() == streamId;
  }
}
