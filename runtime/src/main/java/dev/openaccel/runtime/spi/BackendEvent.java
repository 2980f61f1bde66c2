package dev.openaccel.runtime.spi;

/**
 * A backend's native event, created lazily by {@link DeviceGuardImpl#record} and destroyed by
 * {@link DeviceGuardImpl#destroyEvent}; the counterpart of c10's {@code void* event}.
 */
public interface BackendEvent {

  /** Non-zero, stable for the event's life, unique among the backend's live events. */
  long id();

  /** The device the event was created on. */
  int deviceIndex();
}
