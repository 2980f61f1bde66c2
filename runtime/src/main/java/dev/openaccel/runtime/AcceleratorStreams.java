package dev.openaccel.runtime;

import java.util.Collection;

/**
 * The streams of an {@link Accelerator} and the caller's current stream per device: {@code
 * torch.accelerator}'s stream functions and {@code torch.Stream}'s constructor. {@link Accelerator}
 * is its only implementation. All methods are thread-safe; "current" means the caller's own
 * context, where every device starts with its default stream current. A device without index means
 * the caller's current device of its type; a device of a type without backend is an {@link
 * IllegalArgumentException} containing "no backend for device type", an index past the last device
 * one containing "device index is out of range".
 */
public sealed interface AcceleratorStreams permits Accelerator {

  /**
   * The stream priorities of {@code type}'s backend; a backend without priorities has one.
   *
   * @throws IllegalArgumentException containing "no backend for device type"
   */
  PriorityRange priorityRange(DeviceType type);

  /**
   * The caller's current stream of its current device, as {@code
   * torch.accelerator.current_stream()}.
   *
   * @throws IllegalStateException if there is no default device type (see {@link
   *     AcceleratorDevices#currentAccelerator()})
   */
  Stream currentStream();

  /** The caller's current stream of {@code device}: its default stream unless one was set. */
  Stream currentStream(Device device);

  /** The default stream of {@code device}, id 0, as {@code torch.cuda.default_stream}. */
  Stream defaultStream(Device device);

  /**
   * Makes {@code stream} current on its device and that device current, as {@code
   * torch.accelerator.set_stream}.
   */
  void setStream(Stream stream);

  /**
   * Makes {@code stream} current on its device and that device current until the guard closes, as
   * {@code with torch.cuda.stream(s)}.
   */
  StreamGuard streamGuard(Stream stream);

  /**
   * Makes each of {@code streams} current on its device until the guard closes, as c10's {@code
   * MultiStreamGuard}.
   *
   * @throws IllegalArgumentException containing "mix of device types"
   */
  MultiStreamGuard multiStreamGuard(Collection<Stream> streams);

  /**
   * A new stream of the caller's current device, priority 0, as {@code torch.Stream()}.
   *
   * @throws IllegalStateException if there is no default device type (see {@link
   *     AcceleratorDevices#currentAccelerator()})
   */
  Stream newStream();

  /** A new stream of {@code device}, priority 0. */
  Stream newStream(Device device);

  /**
   * A new stream of {@code device}, as {@code torch.Stream(device, priority)}; the priority is
   * clamped into {@link #priorityRange}. Exclusive to its user, who may {@link Stream#close} it.
   *
   * @throws IllegalStateException containing "accepts no more streams" after the accelerator closed
   */
  Stream newStream(Device device, int priority);

  /**
   * The next stream, round-robin, of {@code device}'s fixed pool of high or low priority streams,
   * as c10's {@code getStreamFromPool}.
   *
   * @throws UnsupportedOperationException if the backend does not declare stream pools
   */
  Stream streamFromPool(Device device, boolean highPriority);

  /**
   * The existing stream {@code streamId} of {@code device}.
   *
   * @throws IllegalArgumentException if {@code device} has no stream {@code streamId}
   */
  Stream stream(Device device, long streamId);
}
