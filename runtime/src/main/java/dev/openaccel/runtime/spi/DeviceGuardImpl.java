package dev.openaccel.runtime.spi;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.EventHandle;
import dev.openaccel.runtime.MemoryStats;
import dev.openaccel.runtime.PriorityRange;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.actor.EventSignal;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * A backend's device, stream and event operations: the Java form of c10's {@code
 * DeviceGuardImplInterface}. One instance per backend per {@code Accelerator}; all methods are
 * thread-safe.
 *
 * <p>"Current" device and stream refer to the caller's device context (thread-confined, or the
 * context of the actor handling a message), never to JVM globals. Optional operations a backend
 * does not support throw {@link UnsupportedOperationException} built by {@link #unsupported}; they
 * never fake success.
 */
public interface DeviceGuardImpl {

  /** The device type this backend serves. */
  DeviceType type();

  /** The optional features this backend supports; each one listed must work. */
  Set<Capability> capabilities();

  /** Sets the current device and returns the previous one. */
  Device exchangeDevice(Device d);

  /** The caller's current device of this type. */
  Device getDevice();

  /**
   * Makes {@code d} the caller's current device of this type.
   *
   * @throws IllegalArgumentException containing "device index is out of range"
   */
  void setDevice(Device d);

  /** Like {@link #setDevice} but never throws; an invalid device is ignored. */
  void uncheckedSetDevice(Device d);

  /** The caller's current stream on {@code d}. */
  Stream getStream(Device d);

  /** The default stream of {@code d}, id 0. */
  Stream getDefaultStream(Device d);

  /** A fresh, exclusive stream; the priority is clamped into {@link #priorityRange()}. */
  Stream getNewStream(Device d, int priority);

  /** A stream from a fixed pool per device and priority, handed out round-robin. */
  Stream getStreamFromGlobalPool(Device d, boolean highPriority);

  /** Makes {@code s} current on its device and returns the stream that was current there. */
  Stream exchangeStream(Stream s);

  /** The number of devices; never throws, 0 if the backend failed to initialise. */
  int deviceCount();

  /** The stream priorities of this backend's devices; one value if it has no priorities. */
  PriorityRange priorityRange();

  /** Blocks until all work on all streams of the device has completed. */
  void synchronizeDevice(int deviceIndex);

  /** Whether all work enqueued on {@code s} so far has completed; never blocks. */
  boolean queryStream(Stream s);

  /**
   * Blocks until all work enqueued on {@code s} so far has completed.
   *
   * @throws dev.openaccel.runtime.DeviceExecutionException if that work failed
   */
  void synchronizeStream(Stream s);

  /**
   * Records an event on {@code s}, creating the backend event first if {@code eventOrNull} is null.
   *
   * @param deviceIndex the event's device, or -1 if not yet bound
   * @return the (possibly new) backend event
   */
  BackendEvent record(BackendEvent eventOrNull, Stream s, int deviceIndex, EventFlag flag);

  /**
   * Work enqueued on {@code s} after this call waits for {@code e}'s latest record at call time.
   */
  void block(BackendEvent e, Stream s);

  /** Whether the work captured by {@code e}'s latest record has completed; never blocks. */
  boolean queryEvent(BackendEvent e);

  /**
   * Blocks until the work captured by {@code e}'s latest record at call time has completed.
   *
   * @throws dev.openaccel.runtime.DeviceExecutionException if that work failed
   */
  void synchronizeEvent(BackendEvent e);

  /** Releases the backend event; never throws. */
  void destroyEvent(BackendEvent e, int deviceIndex);

  /** Milliseconds between the completion of {@code start}'s and {@code end}'s latest records. */
  double elapsedTime(BackendEvent start, BackendEvent end, int deviceIndex);

  // ---- OpenAccel additions beyond c10; defaults report the operation as unsupported. ----

  /**
   * Re-wraps an existing stream id of {@code d}.
   *
   * @throws IllegalArgumentException if no such stream exists
   */
  default Stream getStream(Device d, long streamId) {
    throw unsupported("looking up streams by id");
  }

  /** Completes when all work on all streams of the device has completed. */
  default CompletionStage<Void> synchronizeDeviceAsync(int deviceIndex) {
    throw unsupported("asynchronous device synchronization");
  }

  /** Like {@link #synchronizeEvent(BackendEvent)}; false if the timeout passed first. */
  default boolean synchronizeEvent(BackendEvent e, Duration timeout) {
    throw unsupported("timed event synchronization");
  }

  /** Completes when {@code e}'s latest record at call time completes. */
  default CompletionStage<Void> eventCompletion(BackendEvent e) {
    throw unsupported("event completion stages");
  }

  /** Sends one signal to {@code subscriber} for {@code e}'s latest record at call time. */
  default void subscribe(BackendEvent e, ActorRef<EventSignal> subscriber) {
    throw unsupported("event subscription");
  }

  /**
   * Allocates {@code bytes} of device memory for use on {@code stream} (the caller's current stream
   * of the device).
   *
   * @throws IllegalArgumentException if {@code bytes <= 0}
   * @throws dev.openaccel.runtime.DeviceOutOfMemoryException if it does not fit
   */
  default DeviceBuffer allocate(Stream stream, long bytes) {
    throw unsupported("device memory");
  }

  /** The memory statistics of {@code d}. */
  default MemoryStats memoryStats(Device d) {
    throw unsupported("device memory");
  }

  /** Makes {@code d}'s peak allocated bytes its allocated bytes now; resets nothing else. */
  default void resetPeakMemoryStats(Device d) {
    throw unsupported("device memory");
  }

  /**
   * Gives the free memory cached for {@code d} back to the device. Memory of a buffer closed while
   * other streams' work recorded with {@code recordStream} may still use it goes back once that
   * work completes, never before.
   */
  default void emptyCache(Device d) {
    throw unsupported("device memory");
  }

  /** Makes an interprocess event findable by {@link #openEvent} and returns its handle. */
  default EventHandle exportEvent(BackendEvent e) {
    throw unsupported("interprocess events");
  }

  /** The live interprocess event with this id, for {@code openEvent}. */
  default BackendEvent openEvent(long eventId) {
    throw unsupported("interprocess events");
  }

  /** The exception an optional operation throws when this backend lacks it. */
  default UnsupportedOperationException unsupported(String what) {
    return new UnsupportedOperationException(type().name() + " doesn't support " + what);
  }
}
