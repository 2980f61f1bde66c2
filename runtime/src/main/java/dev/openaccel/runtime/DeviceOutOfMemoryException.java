package dev.openaccel.runtime;

/**
 * An allocation did not fit, even after the allocator released its cached free blocks. The message
 * names the requested, free and capacity bytes; the device stays fully usable.
 */
public class DeviceOutOfMemoryException extends AcceleratorException {
  private static final long serialVersionUID = 1L;

  private final long requested;
  private final long free;
  private final long capacity;

  /**
   * The allocation of {@code requested} bytes on {@code device} failed with {@code free} of {@code
   * capacity} bytes free; the message names all four.
   */
  public DeviceOutOfMemoryException(Device device, long requested, long free, long capacity) {
    super(
        device
            + " out of memory: tried to allocate "
            + requested
            + " bytes; "
            + free
            + " bytes free of "
            + capacity
            + " bytes capacity");
    this.requested = requested;
    this.free = free;
    this.capacity = capacity;
  }

  /** The bytes the failed allocation asked for. */
  public long requested() {
    return requested;
  }

  /** The device's free bytes when the allocation failed. */
  public long free() {
    return free;
  }

  /** The device's memory capacity in bytes. */
  public long capacity() {
    return capacity;
  }
}
