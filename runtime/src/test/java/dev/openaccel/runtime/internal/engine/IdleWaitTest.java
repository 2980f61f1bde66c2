package dev.openaccel.runtime.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.spi.WaitStrategy;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/** Each wait strategy hands an idle device thread its next task, and counts what it burned. */
class IdleWaitTest {
  private static final long BOUND_NANOS = TimeUnit.SECONDS.toNanos(10);

  private IdleMeter meter;

  private DeviceTaskQueue queueWaiting(WaitStrategy strategy) {
    meter = new IdleMeter(Device.of(DeviceType.of("test"), 0), strategy);
    return new DeviceTaskQueue(IdleWait.of(strategy, meter));
  }

  @Test
  void blockingParksAtOnceAndBurnsNothing() throws Exception {
    DeviceTaskQueue queue = queueWaiting(WaitStrategy.BLOCKING);
    Waiter waiter = new Waiter(queue);
    awaitTrue(waiter::isParked, "the blocking thread to park");
    Runnable task = () -> {};
    queue.offer(task);
    assertSame(task, waiter.task());
    assertEquals(0, meter.spunNanos());
  }

  @Test
  void yieldingPollsForItsWholeWindowThenParks() throws Exception {
    DeviceTaskQueue queue = queueWaiting(WaitStrategy.YIELDING);
    Waiter waiter = new Waiter(queue);
    awaitTrue(waiter::isParked, "the yielding thread to park after its window");
    assertTrue(
        meter.spunNanos() >= YieldingWait.YIELD_NANOS,
        "spun " + meter.spunNanos() + " ns before parking");
    Runnable task = () -> {};
    queue.offer(task);
    assertSame(task, waiter.task());
  }

  @Test
  void busySpinCountsIdleTimeWhileItSpinsAndTakesTheNextTask() throws Exception {
    DeviceTaskQueue queue = queueWaiting(WaitStrategy.BUSY_SPIN);
    Waiter waiter = new Waiter(queue);
    awaitTrue(() -> meter.spunNanos() > 0, "the spinning thread to count idle time");
    assertTrue(waiter.thread.getState() != Thread.State.WAITING, "a busy-spin thread never parks");
    Runnable task = () -> {};
    queue.offer(task);
    assertSame(task, waiter.task());
  }

  @Test
  void busySpinStopsWhenInterrupted() throws Exception {
    DeviceTaskQueue queue = queueWaiting(WaitStrategy.BUSY_SPIN);
    Waiter waiter = new Waiter(queue);
    awaitTrue(() -> meter.spunNanos() > 0, "the spinning thread to count idle time");
    waiter.thread.interrupt();
    ExecutionException stopped = assertThrows(ExecutionException.class, waiter::task);
    assertTrue(stopped.getCause() instanceof InterruptedException, stopped.toString());
  }

  /** A thread that takes one task from the queue, as an idle pool thread does. */
  private static final class Waiter {
    final CompletableFuture<Runnable> taken = new CompletableFuture<>();
    final Thread thread;

    Waiter(DeviceTaskQueue queue) {
      thread =
          new Thread(
              () -> {
                try {
                  taken.complete(queue.take());
                } catch (Throwable e) {
                  taken.completeExceptionally(e);
                }
              },
              "idle-wait-test");
      thread.start();
    }

    boolean isParked() {
      return thread.getState() == Thread.State.WAITING;
    }

    Runnable task() throws Exception {
      return taken.get(10, TimeUnit.SECONDS);
    }
  }

  private static void awaitTrue(BooleanSupplier condition, String what) {
    long start = System.nanoTime();
    while (!condition.getAsBoolean()) {
      assertTrue(System.nanoTime() - start < BOUND_NANOS, "timed out waiting for " + what);
      Thread.onSpinWait();
    }
  }
}
