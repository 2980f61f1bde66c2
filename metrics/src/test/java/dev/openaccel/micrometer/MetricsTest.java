package dev.openaccel.micrometer;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.testkit.OpenAccelTest;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * Base of this module's tests: one accelerator per class, started by {@link OpenAccelTest}
 * (OpenReg's two devices and the {@code nomemory} device, OpenReg the default), which also fails a
 * test that leaves streams with unfinished work, events or device buffers open; and per test a
 * fresh {@link SimpleMeterRegistry} with a binder bound to it, closed after the test (before that
 * check). Every wait is bounded by {@link #WAIT}.
 */
@OpenAccelTest
abstract class MetricsTest {
  static final Duration WAIT = Duration.ofSeconds(10);
  static final DeviceType OPENREG = DeviceType.of("openreg");
  static final Device OPENREG_0 = Device.of(OPENREG, 0);

  Accelerator acc;
  SimpleMeterRegistry registry;
  OpenAccelMetrics metrics;

  @BeforeEach
  void bind(Accelerator accelerator) {
    acc = accelerator;
    registry = new SimpleMeterRegistry();
    metrics = new OpenAccelMetrics(acc);
    metrics.bindTo(registry);
  }

  @AfterEach
  void unbind() {
    if (metrics != null) {
      metrics.close();
    }
  }

  /** The gauge {@code name} of {@code device}, which must exist. */
  Gauge gauge(String name, Device device) {
    return registry.get(name).tag(MeterNames.DEVICE, device.toString()).gauge();
  }

  /** The counter {@code name} of {@code device}, which must exist. */
  Counter counter(String name, Device device) {
    return registry.get(name).tag(MeterNames.DEVICE, device.toString()).counter();
  }

  /** Waits until {@code condition} holds; fails naming {@code what} after {@link #WAIT}. */
  static void awaitTrue(BooleanSupplier condition, String what) {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!condition.getAsBoolean()) {
      assertTrue(System.nanoTime() < deadline, "waited " + WAIT + " for " + what);
      Thread.yield();
    }
  }

  /** Waits until {@code counter} counts {@code expected}; the trace reaches it as messages. */
  static void awaitCount(Counter counter, double expected) {
    awaitTrue(
        () -> counter.count() == expected,
        counter.getId() + " to count " + expected + " (it counts " + counter.count() + ")");
  }

  /**
   * Waits until {@code timer} has timed {@code expected} kernels. The binder's actor records a
   * kernel's time just after it counts the kernel finished, so a test that waited for that counter
   * must wait for the timer as well; the timer adds the time just after the count.
   */
  static void awaitCount(Timer timer, long expected) {
    awaitTrue(
        () -> timer.count() == expected,
        timer.getId() + " to time " + expected + " kernels (it timed " + timer.count() + ")");
  }
}
