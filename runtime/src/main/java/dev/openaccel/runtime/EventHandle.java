package dev.openaccel.runtime;

import java.io.Serializable;
import java.util.Objects;

/**
 * A shareable reference to an interprocess event, the analogue of {@code cudaIpcEventHandle_t}:
 * plain data that travels in messages; {@link Accelerator#openEvent} turns it back into an {@link
 * Event}.
 *
 * @param deviceType the event's device type
 * @param deviceIndex the device it is bound to
 * @param eventId the event's id in its owning accelerator
 * @param node the address of the actor system that owns the event
 */
public record EventHandle(DeviceType deviceType, int deviceIndex, long eventId, String node)
    implements Serializable {
  /**
   * Checks the fields.
   *
   * @throws IllegalArgumentException "invalid event handle: event id ..., device index ..." unless
   *     the id is positive and the index non-negative; {@link NullPointerException} for a null type
   *     or node
   */
  public EventHandle {
    Objects.requireNonNull(deviceType, "deviceType");
    Objects.requireNonNull(node, "node");
    if (eventId <= 0 || deviceIndex < 0) {
      throw new IllegalArgumentException(
          "invalid event handle: event id " + eventId + ", device index " + deviceIndex);
    }
  }
}
