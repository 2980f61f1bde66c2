package dev.openaccel.openreg.stream;

import static dev.openaccel.openreg.testing.KernelLatches.D0;
import static dev.openaccel.openreg.testing.KernelLatches.D1;
import static dev.openaccel.openreg.testing.KernelLatches.assertReleased;
import static dev.openaccel.openreg.testing.KernelLatches.drain;
import static dev.openaccel.openreg.testing.KernelLatches.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.openreg.testing.KernelLatches;
import dev.openaccel.openreg.testing.SharedAcceleratorTest;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.Stream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * How work runs on streams: strictly in enqueue order and one kernel at a time on one stream,
 * concurrently across streams (of one device and of different devices), {@code query} and {@code
 * synchronize} tracking the work enqueued so far, and {@code waitStream} ordering. Orderings are
 * forced with latches that kernels await, never with sleeps.
 */
class StreamExecutionTest extends SharedAcceleratorTest {
  private static Runnable gated(CountDownLatch started, CountDownLatch gate) {
    return () -> {
      started.countDown();
      KernelLatches.await(gate);
    };
  }

  @Test
  void kernelsOnOneStreamRunInEnqueueOrder() throws Exception {
    Stream stream = acc.newStream(D0);
    List<Integer> order = Collections.synchronizedList(new ArrayList<>());
    for (int i = 0; i < 2000; i++) {
      int index = i;
      stream.launch("k" + i, () -> order.add(index));
    }
    drain(stream);
    assertEquals(2000, order.size());
    for (int i = 0; i < order.size(); i++) {
      assertEquals(i, order.get(i));
    }
  }

  @Test
  void kernelsOnOneStreamNeverOverlap() throws Exception {
    Stream stream = acc.newStream(D1);
    AtomicInteger running = new AtomicInteger();
    AtomicInteger maxRunning = new AtomicInteger();
    for (int i = 0; i < 500; i++) {
      stream.launch(
          "k" + i,
          () -> {
            maxRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
            Thread.onSpinWait();
            running.decrementAndGet();
          });
    }
    drain(stream);
    assertEquals(1, maxRunning.get());
  }

  @Test
  void streamsOfOneDeviceRunConcurrently() throws Exception {
    Stream first = acc.newStream(D0);
    Stream second = acc.newStream(D0);
    CountDownLatch released = new CountDownLatch(1);
    CompletionStage<Boolean> waiter =
        first.submit(
            "wait-for-second", () -> released.await(KernelLatches.SECONDS, TimeUnit.SECONDS));
    second.launch("release-first", released::countDown);
    assertTrue(get(waiter), "the first stream's kernel never saw the second stream's kernel run");
  }

  @Test
  void streamsOfDifferentDevicesRunConcurrently() throws Exception {
    Stream first = acc.newStream(D0);
    Stream second = acc.newStream(D1);
    CountDownLatch released = new CountDownLatch(1);
    CompletionStage<Boolean> waiter =
        first.submit(
            "wait-for-other-device", () -> released.await(KernelLatches.SECONDS, TimeUnit.SECONDS));
    second.launch("release-first", released::countDown);
    assertTrue(get(waiter), "the device 0 kernel never saw the device 1 kernel run");
  }

  @Test
  void queryIsFalseWhileAKernelRunsAndTrueAfter() throws Exception {
    Stream stream = acc.newStream(D0);
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch gate = new CountDownLatch(1);
    stream.launch("gated", gated(started, gate));
    assertReleased(started);
    assertFalse(stream.query());
    gate.countDown();
    drain(stream);
    assertTrue(stream.query());
  }

  @Test
  void queryIsFalseWhileAKernelRunsAfterEarlierKernelsCompleted() throws Exception {
    Stream stream = acc.newStream(D1);
    for (int i = 0; i < 3; i++) {
      stream.launch("earlier-" + i, () -> {});
    }
    drain(stream);
    assertTrue(stream.query());

    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch gate = new CountDownLatch(1);
    stream.launch("gated", gated(started, gate));
    assertReleased(started);
    try {
      assertFalse(stream.query(), "query() is true while a kernel still runs");
    } finally {
      gate.countDown();
    }
  }

  @Test
  void synchronizeWaitsForEveryEnqueuedKernel() {
    Stream stream = acc.newStream(D0);
    CountDownLatch gate = new CountDownLatch(1);
    AtomicInteger done = new AtomicInteger();
    stream.launch("warm-up", done::incrementAndGet);
    stream.launch(
        "gated",
        () -> {
          KernelLatches.await(gate);
          done.incrementAndGet();
        });
    for (int i = 0; i < 10; i++) {
      stream.launch("after-" + i, done::incrementAndGet);
    }
    KernelLatches.releaseWhenParked(Thread.currentThread(), gate);
    stream.synchronize();
    assertEquals(12, done.get());
    assertTrue(stream.query());
  }

  @Test
  void synchronizeWaitsForAKernelEnqueuedAfterEarlierWorkCompleted() throws Exception {
    Stream stream = acc.newStream(D1);
    stream.launch("earlier", () -> {});
    drain(stream);
    CountDownLatch gate = new CountDownLatch(1);
    AtomicBoolean finished = new AtomicBoolean();
    stream.launch(
        "gated",
        () -> {
          KernelLatches.await(gate);
          finished.set(true);
        });
    KernelLatches.releaseWhenParked(Thread.currentThread(), gate);
    stream.synchronize();
    assertTrue(finished.get(), "synchronize() returned while a kernel was still running");
  }

  @Test
  void synchronizeAsyncCompletesOnlyAfterEnqueuedWork() throws Exception {
    Stream stream = acc.newStream(D1);
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch gate = new CountDownLatch(1);
    AtomicBoolean finished = new AtomicBoolean();
    stream.launch(
        "gated",
        () -> {
          gated(started, gate).run();
          finished.set(true);
        });
    CompletionStage<Void> synced = stream.synchronizeAsync();
    assertReleased(started);
    assertFalse(synced.toCompletableFuture().isDone());
    gate.countDown();
    get(synced);
    assertTrue(finished.get());
  }

  @Test
  void synchronizeOnAnIdleStreamReturns() throws Exception {
    Stream stream = acc.newStream(D0);
    stream.synchronize();
    get(stream.synchronizeAsync());
    assertTrue(stream.query());
  }

  @Test
  void waitStreamDelaysLaterWorkUntilEarlierWorkOfTheOtherStream() throws Exception {
    Stream producer = acc.newStream(D0);
    Stream consumer = acc.newStream(D0);
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch gate = new CountDownLatch(1);
    AtomicBoolean produced = new AtomicBoolean();
    producer.launch(
        "produce",
        () -> {
          gated(started, gate).run();
          produced.set(true);
        });
    CompletionStage<Boolean> before = consumer.submit("before-wait", produced::get);
    consumer.waitStream(producer);
    CompletionStage<Boolean> after = consumer.submit("after-wait", produced::get);

    assertFalse(get(before), "work enqueued before waitStream must not wait");
    assertReleased(started);
    assertFalse(after.toCompletableFuture().isDone());
    assertFalse(consumer.query());
    gate.countDown();
    assertTrue(get(after));
  }

  @Test
  void waitStreamDoesNotWaitForWorkEnqueuedOnTheOtherStreamLater() throws Exception {
    Stream producer = acc.newStream(D1);
    Stream consumer = acc.newStream(D0);
    producer.launch("early", () -> {});
    consumer.waitStream(producer);
    CountDownLatch gate = new CountDownLatch(1);
    AtomicBoolean lateDone = new AtomicBoolean();
    producer.launch(
        "late",
        () -> {
          KernelLatches.await(gate);
          lateDone.set(true);
        });
    try {
      assertEquals("ran", get(consumer.submit("consume", () -> "ran")));
      assertFalse(lateDone.get());
    } finally {
      gate.countDown();
    }
    drain(producer);
    assertTrue(lateDone.get());
  }

  @Test
  void waitStreamOnItselfDoesNotDeadlock() throws Exception {
    Stream stream = acc.newStream(D0);
    stream.launch("before", () -> {});
    stream.waitStream(stream);
    assertEquals(1, get(stream.submit("after", () -> 1)));
  }

  @Test
  void recordedEventCompletesOnlyAfterThePrecedingKernel() throws Exception {
    Stream stream = acc.newStream(D1);
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch gate = new CountDownLatch(1);
    stream.launch("gated", gated(started, gate));
    Event event = stream.recordEvent();
    assertReleased(started);
    assertFalse(event.query());
    gate.countDown();
    assertTrue(event.synchronize(Duration.ofSeconds(KernelLatches.SECONDS)));
    assertTrue(event.query());
  }
}
