package dev.openaccel.runtime.spi;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceOutOfMemoryException;
import dev.openaccel.runtime.Stream;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * What a test controls of the engines of one actor system's accelerator: when each kernel or copy
 * of a stream runs (held, stepped, delayed) or whether it fails instead, whether an allocation
 * succeeds, and the clock that stamps the completion of events. OpenAccel's testkit implements it;
 * with none {@link #install installed} (always, outside tests) the engine runs everything at once
 * on the real clock, and pays one volatile read per kernel or copy for the check.
 *
 * <p>The engine calls it on its own threads: {@link #beforeWork} on the stream's device thread,
 * {@link #beforeAllocation} on the allocating thread, {@link #nanoTime} wherever a completion is
 * stamped and {@link #timeout} on a thread about to wait. None of them may block.
 */
public interface DeviceControl {

  /**
   * Asked by {@code stream}'s owner before it runs the kernel or copy named {@code name} (a
   * kernel's name, or {@code "copy"}, {@code "copyToDevice"}, {@code "copyToHost"}); records, waits
   * and synchronizes are not asked.
   *
   * @return null or a stage completed normally to run it now; a stage not yet completed to run
   *     nothing more on {@code stream} until it completes, then run it (or fail it, as next); a
   *     stage completed exceptionally with {@code cause} to fail the item with it, as if the kernel
   *     had thrown {@code cause}: a {@code DeviceExecutionException} naming the item and the stream
   *     at the next synchronization point that covers it, the stream running on
   */
  default CompletionStage<?> beforeWork(Stream stream, String name) {
    return null;
  }

  /**
   * Asked before {@code bytes} are allocated on {@code device}.
   *
   * @throws DeviceOutOfMemoryException to refuse the allocation, which then throws it
   */
  default void beforeAllocation(Device device, long bytes) {}

  /**
   * The clock, in nanoseconds, that stamps the completion of events on streams without a device
   * queue, which {@code Event.elapsedTime} subtracts; by default {@link System#nanoTime()}.
   */
  default long nanoTime() {
    return System.nanoTime();
  }

  /**
   * When a timed host wait ({@code Event.synchronize(Duration)}) of {@code timeout} gives up.
   *
   * @return a stage that completes once {@code timeout} has passed on this control's clock, or null
   *     (the default) to wait on the real clock
   */
  default CompletionStage<?> timeout(Duration timeout) {
    return null;
  }

  /**
   * Makes {@code control} the one the engines of {@code system} ask from now on; the streams take
   * it up at their next item. This method is thread-safe.
   *
   * @throws IllegalStateException if another control is installed on {@code system}
   */
  static void install(ActorSystem<?> system, DeviceControl control) {
    DeviceControlSlot.of(system).install(control);
  }

  /**
   * Removes {@code control} from {@code system} if it is the one installed; work already held by it
   * still waits for the stages it gave. This method is thread-safe.
   */
  static void uninstall(ActorSystem<?> system, DeviceControl control) {
    DeviceControlSlot.of(system).uninstall(control);
  }
}
