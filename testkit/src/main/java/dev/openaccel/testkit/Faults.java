package dev.openaccel.testkit;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceOutOfMemoryException;
import dev.openaccel.runtime.Stream;
import java.time.Duration;
import java.util.Objects;

/**
 * Injects faults into an accelerator's device work without touching the code under test: a stream's
 * next kernel (or its n-th, or the next one of a name) fails with a given exception, the next
 * allocation on a device throws {@link DeviceOutOfMemoryException}, a stream's kernels and copies
 * start late. The rules apply to the work a stream runs after the call (work enqueued earlier and
 * not yet run included); {@link OpenAccelTest}'s check removes them after each test.
 *
 * <pre>{@code
 * Faults faults = Faults.on(accelerator);
 * faults.failNext(stream, new IllegalStateException("injected"));
 * stream.launch("first", () -> {});              // fails: as if it had thrown the exception
 * stream.launch("second", () -> {});             // runs
 * assertThrows(DeviceExecutionException.class, stream::synchronize);
 * }</pre>
 *
 * <p>A failed kernel or copy fails as one that threw: a {@code DeviceExecutionException} naming it,
 * its stream and the injected cause, at the next synchronization point that covers it (or through
 * the stage of a {@code submit}); the stream runs on. Copies count as items and are named {@code
 * "copy"}, {@code "copyToDevice"} and {@code "copyToHost"}. This class is thread-safe.
 */
public final class Faults {
  private final TestControl control;

  private Faults(TestControl control) {
    this.control = control;
  }

  /** The faults of {@code accelerator}. */
  public static Faults on(Accelerator accelerator) {
    return new Faults(TestControl.of(Objects.requireNonNull(accelerator, "accelerator")));
  }

  /** The next kernel or copy {@code stream} runs fails with {@code cause}. */
  public Faults failNext(Stream stream, Throwable cause) {
    return failNth(stream, 1, cause);
  }

  /**
   * The {@code n}-th kernel or copy {@code stream} runs from now (1: the next) fails with {@code
   * cause}.
   *
   * @throws IllegalArgumentException if {@code n < 1}
   */
  public Faults failNth(Stream stream, int n, Throwable cause) {
    if (n < 1) {
      throw new IllegalArgumentException("n counts from 1 (the next item), got " + n);
    }
    control.rules(Objects.requireNonNull(stream, "stream")).failNth(n, checked(cause));
    return this;
  }

  /**
   * The next kernel or copy named {@code name} that {@code stream} runs fails with {@code cause}.
   */
  public Faults failNamed(Stream stream, String name, Throwable cause) {
    Objects.requireNonNull(name, "name");
    control.rules(Objects.requireNonNull(stream, "stream")).failNamed(name, checked(cause));
    return this;
  }

  /**
   * The next allocation on {@code device} throws {@link DeviceOutOfMemoryException}, with the
   * device's capacity and free bytes as they are (it is not counted in its memory stats); each call
   * fails one more.
   */
  public Faults failNextAllocation(Device device) {
    control.failAllocations(Objects.requireNonNull(device, "device"), 1);
    return this;
  }

  /**
   * Each kernel and copy of {@code stream} from now starts {@code latency} late: on the {@link
   * ManualClock} if one is installed (then it waits for the test to advance the clock), else on the
   * real clock. {@link Duration#ZERO} removes the latency.
   *
   * @throws IllegalArgumentException if {@code latency} is negative
   */
  public Faults delay(Stream stream, Duration latency) {
    if (Objects.requireNonNull(latency, "latency").isNegative()) {
      throw new IllegalArgumentException("a latency must be zero or more, got " + latency);
    }
    control.rules(Objects.requireNonNull(stream, "stream")).latency(latency);
    return this;
  }

  /** Removes every fault, latency and step of this accelerator and lets held work go. */
  public void clear() {
    control.reset();
  }

  private static Throwable checked(Throwable cause) {
    return Objects.requireNonNull(cause, "cause");
  }
}
