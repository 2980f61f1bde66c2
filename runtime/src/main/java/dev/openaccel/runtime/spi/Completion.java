package dev.openaccel.runtime.spi;

/**
 * How a {@link DeviceQueue} reports that one submitted command has ended. Call exactly one of the
 * two methods, once, from any thread (a device callback thread is fine: the engine hands the result
 * to the stream's actor, the only writer of the stream's progress and failure). Completions may
 * arrive in any order; the engine applies them in submission order.
 */
public interface Completion {

  /** The command finished; {@code deviceNanos} is its end on the device's clock. */
  void complete(long deviceNanos);

  /** The command failed with {@code cause}. */
  void fail(Throwable cause);
}
