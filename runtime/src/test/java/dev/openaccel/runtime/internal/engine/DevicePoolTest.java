package dev.openaccel.runtime.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.spi.WaitStrategy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A device pool runs every task it is given under each wait strategy, wakes threads only when a
 * task needs one, and counts what its idle threads burned.
 */
class DevicePoolTest {
  private static final long BOUND_NANOS = TimeUnit.SECONDS.toNanos(10);
  private static final AtomicInteger POOLS = new AtomicInteger();

  private final List<Thread> threads = new ArrayList<>();
  private IdleMeter meter;
  private DevicePool pool;

  private DevicePool start(WaitStrategy strategy, int size) {
    meter = new IdleMeter(Device.of(DeviceType.of("test"), 0), strategy);
    String name = "pool-test-" + POOLS.incrementAndGet(); // a pool's threads outlive its latch
    pool = new DevicePool(name, size, IdleWait.of(strategy, meter));
    for (Thread thread : Thread.getAllStackTraces().keySet()) {
      if (thread.getName().startsWith(name + "-")) {
        threads.add(thread);
      }
    }
    assertEquals(size, threads.size(), "the pool's threads");
    return pool;
  }

  @AfterEach
  void stop() throws InterruptedException {
    pool.shutdownNow();
    assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS), "the pool's threads to end");
  }

  @Test
  void blockingParksAtOnceAndBurnsNothing() throws Exception {
    start(WaitStrategy.BLOCKING, 1);
    awaitTrue(() -> parked() == 1, "the blocking thread to park");
    assertTrue(threads.contains(ranOn(pool)));
    assertEquals(0, meter.spunNanos());
  }

  @Test
  void yieldingPollsForItsWholeWindowThenParks() throws Exception {
    start(WaitStrategy.YIELDING, 1);
    awaitTrue(() -> parked() == 1, "the yielding thread to park after its window");
    assertTrue(
        meter.spunNanos() >= YieldingWait.YIELD_NANOS,
        "spun " + meter.spunNanos() + " ns before parking");
    assertTrue(threads.contains(ranOn(pool)));
  }

  @Test
  void yieldingLetsOneThreadOfTheDevicePollWhileTheOthersPark() throws Exception {
    start(WaitStrategy.YIELDING, 3);
    awaitTrue(() -> parked() >= 2, "two of the three idle threads to park");
    assertTrue(threads.contains(ranOn(pool)));
  }

  @Test
  void busySpinNeverParksAndCountsIdleTimeWhileItSpins() throws Exception {
    start(WaitStrategy.BUSY_SPIN, 1);
    awaitTrue(() -> meter.spunNanos() > 0, "the spinning thread to count idle time");
    assertEquals(0, parked(), "a busy-spin thread never parks");
    assertTrue(threads.contains(ranOn(pool)));
  }

  @ParameterizedTest
  @EnumSource(WaitStrategy.class)
  void aTurnHandedOffOnADeviceThreadRunsNextOnThatThreadWithoutWakingAnother(WaitStrategy strategy)
      throws Exception {
    start(strategy, strategy == WaitStrategy.BUSY_SPIN ? 1 : 2);
    if (strategy == WaitStrategy.BLOCKING) {
      awaitTrue(() -> parked() == 2, "both threads to park");
    }
    CompletableFuture<Thread> handing = new CompletableFuture<>();
    CompletableFuture<Thread> handed = new CompletableFuture<>();
    pool.execute(
        () -> {
          DevicePool.handOff(pool::execute, () -> handed.complete(Thread.currentThread()));
          handing.complete(Thread.currentThread());
        });
    Thread thread = handing.get(10, TimeUnit.SECONDS);
    Thread next = handed.get(10, TimeUnit.SECONDS);
    if (strategy == WaitStrategy.BLOCKING) {
      assertSame(thread, next, "nobody else was woken for the handed-off turn");
    } else {
      assertTrue(threads.contains(next));
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = WaitStrategy.class,
      names = {"BLOCKING", "YIELDING"})
  void aHandedOffTurnGetsAThreadOfItsOwnOnceTheHandingThreadSettles(WaitStrategy strategy)
      throws Exception {
    start(strategy, 2);
    awaitTrue(() -> parked() == 2, "both threads to park");
    CountDownLatch handedRan = new CountDownLatch(1);
    CompletableFuture<Boolean> waited = new CompletableFuture<>();
    pool.execute(
        () -> {
          DevicePool.handOff(pool::execute, handedRan::countDown);
          DevicePool.settle(); // as before a kernel: the handed-off turn must not wait for this one
          try {
            waited.complete(handedRan.await(10, TimeUnit.SECONDS));
          } catch (InterruptedException e) {
            waited.completeExceptionally(e);
          }
        });
    assertTrue(waited.get(20, TimeUnit.SECONDS), "the handed-off turn ran on the other thread");
  }

  @ParameterizedTest
  @EnumSource(WaitStrategy.class)
  void manyProducersAndHandOffsLoseNoTask(WaitStrategy strategy) throws Exception {
    start(strategy, strategy == WaitStrategy.BUSY_SPIN ? 1 : 4);
    int producers = 4;
    int perProducer = 20_000;
    CountDownLatch done = new CountDownLatch(producers * perProducer * 2);
    List<Thread> started = new ArrayList<>();
    for (int p = 0; p < producers; p++) {
      Thread producer =
          new Thread(
              () -> {
                for (int i = 0; i < perProducer; i++) {
                  pool.execute(
                      () -> {
                        DevicePool.handOff(pool::execute, done::countDown);
                        done.countDown();
                      });
                  if (i % 64 == 0) {
                    Thread.yield(); // let the pool go idle now and then, so threads park and wake
                  }
                }
              });
      producer.start();
      started.add(producer);
    }
    for (Thread producer : started) {
      producer.join(TimeUnit.SECONDS.toMillis(30));
    }
    assertTrue(done.await(30, TimeUnit.SECONDS), done.getCount() + " tasks never ran");
  }

  @Test
  void shutdownRunsWhatIsQueuedThenRejectsAndEnds() throws Exception {
    start(WaitStrategy.BLOCKING, 2);
    CountDownLatch gate = new CountDownLatch(1);
    CountDownLatch ran = new CountDownLatch(10);
    pool.execute(
        () -> {
          try {
            gate.await(10, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
    for (int i = 0; i < 10; i++) {
      pool.execute(ran::countDown);
    }
    pool.shutdown();
    assertThrows(RejectedExecutionException.class, () -> pool.execute(() -> {}));
    gate.countDown();
    assertTrue(ran.await(10, TimeUnit.SECONDS), "queued tasks ran after shutdown");
    assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS), "the threads ended");
  }

  @Test
  void aFailingTaskLeavesItsThreadServing() throws Exception {
    start(WaitStrategy.BLOCKING, 1);
    threads.get(0).setUncaughtExceptionHandler((t, e) -> {});
    pool.execute(
        () -> {
          throw new IllegalStateException("task failure");
        });
    assertSame(threads.get(0), ranOn(pool));
  }

  private long parked() {
    return threads.stream().filter(t -> t.getState() == Thread.State.WAITING).count();
  }

  /** The thread a task given to {@code pool} runs on. */
  private static Thread ranOn(DevicePool pool) throws Exception {
    CompletableFuture<Thread> ran = new CompletableFuture<>();
    pool.execute(() -> ran.complete(Thread.currentThread()));
    return ran.get(10, TimeUnit.SECONDS);
  }

  private static void awaitTrue(BooleanSupplier condition, String what) {
    long start = System.nanoTime();
    while (!condition.getAsBoolean()) {
      assertTrue(System.nanoTime() - start < BOUND_NANOS, "timed out waiting for " + what);
      Thread.onSpinWait();
    }
  }
}
