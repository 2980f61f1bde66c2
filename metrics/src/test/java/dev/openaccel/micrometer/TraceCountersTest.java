package dev.openaccel.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.Stream;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The counters and the timer fed from the trace bus. */
class TraceCountersTest extends MetricsTest {
  private static final int KERNELS = 25;
  private static final Device OPENREG_1 = Device.of(OPENREG, 1);

  private Timer duration(Device device) {
    return registry
        .get(MeterNames.KERNEL_DURATION)
        .tag(MeterNames.DEVICE, device.toString())
        .timer();
  }

  @Test
  void countersCountExactlyTheKernelsLaunched() {
    Stream stream = acc.newStream(OPENREG_0);
    for (int i = 0; i < KERNELS; i++) {
      stream.launch("k" + i, () -> {});
    }
    stream.synchronize();
    awaitCount(counter(MeterNames.KERNELS_FINISHED, OPENREG_0), KERNELS);
    assertEquals(KERNELS, counter(MeterNames.KERNELS_STARTED, OPENREG_0).count());
    assertEquals(0, counter(MeterNames.KERNELS_FAILED, OPENREG_0).count());
    awaitCount(duration(OPENREG_0), KERNELS); // each kernel's start and end paired
    assertEquals(0, counter(MeterNames.KERNELS_STARTED, OPENREG_1).count(), "the other device");
    stream.close();
  }

  @Test
  void aFailedKernelCountsAsFinishedAndFailed() {
    Stream stream = acc.newStream(OPENREG_0);
    stream.launch("fine", () -> {});
    for (int i = 0; i < 2; i++) {
      stream.launch(
          "broken" + i,
          () -> {
            throw new IllegalStateException("broken on purpose");
          });
    }
    assertThrows(DeviceExecutionException.class, stream::synchronize);
    awaitCount(counter(MeterNames.KERNELS_FINISHED, OPENREG_0), 3);
    assertEquals(2, counter(MeterNames.KERNELS_FAILED, OPENREG_0).count());
    assertEquals(3, counter(MeterNames.KERNELS_STARTED, OPENREG_0).count());
    stream.close();
  }

  @Test
  void theTimerMeasuresAKernelFromItsStartToItsEnd() throws InterruptedException {
    Stream stream = acc.newStream(OPENREG_0);
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch gate = new CountDownLatch(1);
    try {
      stream.launch("held", held(entered, gate));
      awaitEntered(entered);
    } finally {
      gate.countDown();
    }
    stream.synchronize();
    awaitCount(counter(MeterNames.KERNELS_FINISHED, OPENREG_0), 1);
    awaitCount(duration(OPENREG_0), 1);
    awaitTrue( // the timer adds a kernel's time just after its count
        () -> duration(OPENREG_0).totalTime(TimeUnit.NANOSECONDS) > 0,
        "the held kernel's time to be more than zero: it ended after it started");
    stream.close();
  }

  @Test
  void eventRecordsWaitsAndHostSyncsAreCounted() {
    Stream producer = acc.newStream(OPENREG_0);
    Stream consumer = acc.newStream(OPENREG_1);
    producer.launch("produce", () -> {});
    Event event = producer.recordEvent();
    consumer.waitEvent(event);
    consumer.launch("consume", () -> {});
    event.synchronize();
    consumer.synchronize();
    awaitCount(counter(MeterNames.EVENTS_SYNCHRONIZED, OPENREG_0), 1);
    awaitCount(counter(MeterNames.EVENTS_RECORDED, OPENREG_0), 1);
    awaitCount(counter(MeterNames.EVENTS_WAITED, OPENREG_1), 1);
    assertEquals(0, counter(MeterNames.EVENTS_WAITED, OPENREG_0).count(), "waits on the producer");
    event.close();
    producer.close();
    consumer.close();
  }

  /**
   * A kernel body that waits for {@code gate}, at most {@link #WAIT}. A stream held before its
   * kernel (the testkit's {@code StreamHold} or {@code StreamStepper}) would not do here: the timer
   * measures from the kernel's start, so the kernel itself must be running while the test waits.
   */
  private static Runnable held(CountDownLatch entered, CountDownLatch gate) {
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
  private static void awaitEntered(CountDownLatch entered) throws InterruptedException {
    assertTrue(entered.await(WAIT.toMillis(), TimeUnit.MILLISECONDS), "held kernel did not start");
  }
}
