package dev.openaccel.runtime;

import dev.openaccel.runtime.spi.VirtualGuardImpl;
import java.util.Set;
import java.util.concurrent.CompletionStage;

/**
 * The devices of an {@link Accelerator}, the caller's current device and device context, and device
 * synchronization: {@code torch.accelerator}'s device functions. {@link Accelerator} is its only
 * implementation. All methods are thread-safe; "current" means the caller's own context (its
 * thread, or the actor handling a message), where each device type starts at device 0.
 */
public sealed interface AcceleratorDevices permits Accelerator {

  /**
   * The backend of {@code type} as the SPI sees it (c10's {@code getDeviceGuardImpl}): for backend
   * authors and conformance tests, which check a backend below the public API.
   *
   * @throws IllegalArgumentException containing "no backend for device type" if none is loaded
   */
  VirtualGuardImpl deviceGuardImpl(DeviceType type);

  /** The device types whose backends were found and enabled, in name order. */
  Set<DeviceType> deviceTypes();

  /**
   * The default device type, as {@code torch.accelerator.current_accelerator()}: {@code
   * openaccel.default-device-type}, else the only backend.
   *
   * @throws IllegalStateException if there is no backend, or several and no configured default
   */
  DeviceType currentAccelerator();

  /**
   * Devices of {@link #currentAccelerator()}, as {@code torch.accelerator.device_count()}; never
   * throws, 0 if there is none or it failed.
   */
  int deviceCount();

  /**
   * Devices of {@code type}; 0 if its backend failed to start.
   *
   * @throws IllegalArgumentException containing "no backend for device type"
   */
  int deviceCount(DeviceType type);

  /**
   * The index of the caller's current device of {@link #currentAccelerator()}, as {@code
   * torch.accelerator.current_device_index()}; 0 until set.
   *
   * @throws IllegalStateException as {@link #currentAccelerator()}
   */
  int currentDeviceIndex();

  /**
   * The caller's current device of {@link #currentAccelerator()}.
   *
   * @throws IllegalStateException as {@link #currentAccelerator()}
   */
  Device currentDevice();

  /**
   * The caller's current device of {@code type}; device 0 until set.
   *
   * @throws IllegalArgumentException containing "no backend for device type"
   */
  Device currentDevice(DeviceType type);

  /**
   * Makes device {@code index} of {@link #currentAccelerator()} current, as {@code
   * torch.accelerator.set_device_index}; a negative index is a no-op.
   *
   * @throws IllegalArgumentException containing "device index is out of range"
   */
  void setDeviceIndex(int index);

  /**
   * Makes {@code device} current for its type; a device without index is a no-op.
   *
   * @throws IllegalArgumentException containing "device index is out of range" or "no backend for
   *     device type"
   */
  void setDevice(Device device);

  /**
   * Makes device {@code index} of {@link #currentAccelerator()} current until the guard closes, as
   * {@code torch.accelerator.device_index(index)}; with a negative index the guard switches nothing
   * (and still restores the device current at its opening).
   *
   * @throws IllegalArgumentException containing "device index is out of range"
   */
  DeviceGuard deviceGuard(int index);

  /**
   * Makes {@code device} current for its type until the guard closes; a device without index
   * switches nothing.
   *
   * @throws IllegalArgumentException containing "device index is out of range" or "no backend for
   *     device type"
   */
  DeviceGuard deviceGuard(Device device);

  /**
   * Blocks until all streams of the current device have completed their work, as {@code
   * torch.accelerator.synchronize()}; see {@link #synchronize(Device)}.
   */
  void synchronize();

  /**
   * Blocks until the work enqueued on every stream of {@code device} before this call has
   * completed, as {@code torch.accelerator.synchronize(device)}; a device without index means the
   * current one.
   *
   * @throws DeviceExecutionException if that work failed, or did not complete within {@code
   *     openaccel.device-synchronize-timeout}
   * @throws IllegalStateException containing "blocking call on an actor thread" when called in a
   *     kernel or an actor of the accelerator's system (use {@link #synchronizeAsync})
   * @throws IllegalArgumentException containing "device index is out of range"
   */
  void synchronize(Device device);

  /**
   * Completes when the work enqueued on every stream of {@code device} before this call has
   * completed, or fails as {@link #synchronize(Device)} would throw; never blocks.
   *
   * @throws IllegalArgumentException containing "device index is out of range"
   */
  CompletionStage<Void> synchronizeAsync(Device device);

  /** A snapshot of the caller's current devices and streams. */
  DeviceContext captureContext();

  /**
   * Runs {@code body} under {@code context}, then restores the caller's own context, also on
   * exceptions.
   *
   * @throws IllegalArgumentException if the context names an unknown device type or an out-of-range
   *     device
   */
  void runWith(DeviceContext context, Runnable body);
}
