package dev.openaccel.testkit;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceOutOfMemoryException;
import dev.openaccel.runtime.MemoryStats;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.DeviceControl;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Extension;
import org.apache.pekko.actor.typed.ExtensionId;

/**
 * The testkit's {@link DeviceControl} of one accelerator: the rules that {@link Faults}, {@link
 * StreamStepper} and {@link ManualClock} set, asked by the engine before each kernel, copy and
 * allocation. Installed on the accelerator's actor system while any rule or clock is set, and
 * removed by {@link #reset}, which {@link OpenAccelExtension} calls after each test.
 *
 * <p>Owns: the map of each stream's {@link StreamRules} (each guarded by its own monitor), the
 * count of allocation faults per device, and the clock, set and cleared under this object's
 * monitor. The engine reads them on its threads. This class is thread-safe.
 */
final class TestControl implements DeviceControl, Extension {
  private static final class Id extends ExtensionId<TestControl> {
    private static final Id INSTANCE = new Id();

    @Override
    public TestControl createExtension(ActorSystem<?> system) {
      return new TestControl(Accelerator.get(system));
    }
  }

  private final Accelerator accelerator;
  private final Map<Stream, StreamRules> streams = new ConcurrentHashMap<>();
  private final Map<Device, AtomicInteger> allocationFaults = new ConcurrentHashMap<>();
  private volatile ManualClock clock;
  private boolean installed; // under this object's monitor

  private TestControl(Accelerator accelerator) {
    this.accelerator = accelerator;
  }

  /** The control of {@code accelerator} (one per actor system), created at its first use. */
  static TestControl of(Accelerator accelerator) {
    return Id.INSTANCE.apply(accelerator.system());
  }

  Accelerator accelerator() {
    return accelerator;
  }

  /** The rules of {@code stream}, created (and this control installed) at their first use. */
  StreamRules rules(Stream stream) {
    install();
    return streams.computeIfAbsent(stream, StreamRules::new);
  }

  /** Makes the next {@code count} more allocations on {@code device} fail. */
  void failAllocations(Device device, int count) {
    install();
    allocationFaults.computeIfAbsent(device, d -> new AtomicInteger()).addAndGet(count);
  }

  /** Makes {@code manual} the clock of the accelerator's engines. */
  synchronized void useClock(ManualClock manual) {
    if (clock != null && clock != manual) {
      throw new IllegalStateException(
          "a manual clock is already installed on " + accelerator.system().name());
    }
    clock = manual;
    install();
  }

  ManualClock clock() {
    return clock;
  }

  /** Lets every held item go, forgets every rule and the clock, and uninstalls this control. */
  synchronized void reset() {
    streams.values().forEach(StreamRules::releaseAll);
    streams.clear();
    allocationFaults.clear();
    clock = null;
    if (installed) {
      DeviceControl.uninstall(accelerator.system(), this);
      installed = false;
    }
  }

  private synchronized void install() {
    if (!installed) {
      DeviceControl.install(accelerator.system(), this);
      installed = true;
    }
  }

  @Override
  public CompletionStage<?> beforeWork(Stream stream, String name) {
    StreamRules rules = streams.get(stream);
    return rules == null ? null : rules.next(name, this);
  }

  @Override
  public void beforeAllocation(Device device, long bytes) {
    AtomicInteger faults = allocationFaults.get(device);
    if (faults != null && faults.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      MemoryStats stats = accelerator.memoryStats(device);
      throw new DeviceOutOfMemoryException(
          device, bytes, stats.capacity() - stats.reserved(), stats.capacity());
    }
  }

  @Override
  public long nanoTime() {
    ManualClock manual = clock;
    return manual == null ? System.nanoTime() : manual.nanos();
  }

  @Override
  public CompletionStage<?> timeout(Duration timeout) {
    ManualClock manual = clock;
    return manual == null ? null : manual.after(timeout);
  }

  /** A stage that completes after {@code delay}: on the manual clock if one is set, else real. */
  CompletableFuture<Object> after(Duration delay) {
    ManualClock manual = clock;
    if (manual != null) {
      return manual.after(delay);
    }
    CompletableFuture<Object> due = new CompletableFuture<>();
    ActorSystem<?> system = accelerator.system();
    system.scheduler().scheduleOnce(delay, () -> due.complete(null), system.executionContext());
    return due;
  }
}
