package dev.openaccel.runtime.spi;

/**
 * A point in a device queue (an event record), made by {@link DeviceQueue#mark}. Another queue of
 * the same executor can wait for it on the device with {@link DeviceQueue#waitFor}.
 */
public interface Marker {

  /**
   * Called once by the engine when the record it marks has completed and no new device-side wait
   * will be started on it by the engine. A queue may still be handed a released marker by a wait
   * that raced with the release; it must then return false from {@link DeviceQueue#waitFor}.
   */
  void release();
}
