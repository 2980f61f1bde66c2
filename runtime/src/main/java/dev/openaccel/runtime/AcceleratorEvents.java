package dev.openaccel.runtime;

/**
 * New events of an {@link Accelerator}, as {@code torch.Event}, and events shared by handle. {@link
 * Accelerator} is its only implementation; all methods are thread-safe. A new event takes its
 * device from its first record.
 */
public sealed interface AcceleratorEvents permits Accelerator {

  /**
   * An event of the default device type with the default options, as {@code torch.Event()}.
   *
   * @throws IllegalStateException if there is no default device type (see {@link
   *     AcceleratorDevices#currentAccelerator()})
   */
  Event newEvent();

  /**
   * An event of the default device type with {@code options}.
   *
   * @throws IllegalArgumentException if {@code options} asks for both interprocess and timing
   * @throws UnsupportedOperationException naming the backend and the option it does not support
   * @throws IllegalStateException if there is no default device type
   */
  Event newEvent(EventOptions options);

  /**
   * An event of {@code type} with {@code options}.
   *
   * @throws IllegalArgumentException if {@code options} asks for both interprocess and timing, or
   *     containing "no backend for device type"
   * @throws UnsupportedOperationException naming the backend and the option it does not support
   */
  Event newEvent(DeviceType type, EventOptions options);

  /**
   * The event behind {@code handle}, which follows its owner's records.
   *
   * @throws IllegalArgumentException if no live interprocess event matches the handle
   */
  Event openEvent(EventHandle handle);
}
