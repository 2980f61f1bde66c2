package dev.openaccel.micrometer;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceType;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInstance;

/**
 * Base of this module's tests: one accelerator per class (OpenReg's two devices and the {@code
 * nomemory} device, OpenReg the default), and per test a fresh {@link SimpleMeterRegistry} with a
 * binder bound to it, closed after the test. Every wait is bounded by {@link #WAIT}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class MetricsTest {
  static final Duration WAIT = Duration.ofSeconds(10);
  static final DeviceType OPENREG = DeviceType.of("openreg");
  static final Device OPENREG_0 = Device.of(OPENREG, 0);

  Accelerator acc;
  SimpleMeterRegistry registry;
  OpenAccelMetrics metrics;

  @BeforeAll
  void startAccelerator() {
    acc =
        Accelerator.start(
            ConfigFactory.parseString(
                "openaccel.system-name = "
                    + getClass().getSimpleName()
                    + "\nopenaccel.default-device-type = openreg"));
  }

  @AfterAll
  void closeAccelerator() {
    if (acc != null) {
      acc.close();
    }
  }

  @BeforeEach
  void bind() {
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

  /** A kernel body that waits for {@code gate}, at most {@link #WAIT}. */
  static Runnable held(CountDownLatch entered, CountDownLatch gate) {
    return () -> {
      entered.countDown();
      try {
        if (!gate.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
          throw new IllegalStateException("the gate did not open within " + WAIT);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted at the gate", e);
      }
    };
  }

  /** Waits, bounded, until the kernel of {@link #held} has entered. */
  static void awaitEntered(CountDownLatch entered) throws InterruptedException {
    assertTrue(entered.await(WAIT.toMillis(), TimeUnit.MILLISECONDS), "held kernel did not start");
  }
}
