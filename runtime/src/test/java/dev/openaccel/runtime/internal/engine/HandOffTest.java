package dev.openaccel.runtime.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.EngineSpec;
import dev.openaccel.runtime.spi.WaitStrategy;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * A record made in a stream's turn resumes the streams of its device that wait for it without
 * waking a thread: the recording thread runs them next. Whatever the recording thread runs first
 * (its stream's next kernel, a caller's callback, a kernel completing a future another stream waits
 * for) never holds them up. An actor of another module on the device's dispatcher that completes a
 * future a stream waits for hands that stream's turn to its own thread the same way.
 */
class HandOffTest {
  private static final ActorTestKit KIT = ActorTestKit.create();

  @AfterAll
  static void stop() {
    KIT.shutdownTestKit();
  }

  /** Two streams of device 0 of a blocking engine with two device threads. */
  private record Pair(ActorEngine engine, Stream a, Stream b) {
    static Pair of(String type) {
      ActorEngine engine =
          Engines.start(
              KIT.system(),
              EngineSpec.builder(DeviceType.of(type))
                  .computeUnits(2)
                  .waitStrategy(WaitStrategy.BLOCKING)
                  .build());
      Device device = Device.of(engine.type(), 0);
      return new Pair(engine, engine.getNewStream(device, 0), engine.getNewStream(device, 0));
    }

    Event newEvent() {
      return Engines.newEvent(engine, EventOptions.defaults());
    }
  }

  /** The device's threads that are parked, waiting for work. */
  private static long parkedThreads(ActorEngine engine) {
    String name = "openaccel-" + engine.type().name() + "-device-0-";
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().contains(name) && t.getState() == Thread.State.WAITING)
        .count();
  }

  @Test
  void aStreamResumedByARecordDoesNotWaitForTheRecordingStreamsNextKernel() {
    Pair pair = Pair.of("handoffnext");
    Stream a = pair.a();
    Stream b = pair.b();
    Event event = pair.newEvent();
    CountDownLatch bRan = new CountDownLatch(1);
    AtomicBoolean sawB = new AtomicBoolean();
    CountDownLatch gate = Engines.hold(a);
    event.record(a);
    a.launch("waits for b", () -> sawB.set(awaitQuietly(bRan)));
    b.waitEvent(event);
    b.launch("b", bRan::countDown);
    gate.countDown();
    a.synchronize();
    b.synchronize();
    assertTrue(sawB.get(), "b ran while a's next kernel held a's thread");
    event.close();
  }

  @Test
  void aStreamResumedByARecordDoesNotWaitForACallbackOfTheSameRecord() throws Exception {
    Pair pair = Pair.of("handoffcallback");
    Stream a = pair.a();
    Stream b = pair.b();
    Event event = pair.newEvent();
    CountDownLatch bRan = new CountDownLatch(1);
    CountDownLatch bReachedWait = new CountDownLatch(1);
    CountDownLatch gate = Engines.hold(a);
    event.record(a);
    b.launch("before the wait", bReachedWait::countDown);
    b.waitEvent(event);
    b.launch("b", bRan::countDown);
    // b's thread ran the kernel before the wait; once it is parked again, b's wait is registered,
    // before the callback below, so the record resumes b first.
    assertTrue(awaitQuietly(bReachedWait), "b ran its first kernel");
    assertTrue(
        Engines.eventually(() -> parkedThreads(pair.engine()) == 1), "b parked on the event");
    CompletableFuture<Boolean> callbackSawB =
        event.completion().toCompletableFuture().thenApply(done -> awaitQuietly(bRan));
    gate.countDown();
    assertTrue(callbackSawB.get(20, TimeUnit.SECONDS), "b ran while the callback held a thread");
    b.synchronize();
    event.close();
  }

  @Test
  void aStreamWaitingForAFutureIsNotHeldByTheKernelThatCompletesIt() {
    Pair pair = Pair.of("handofffuture");
    Stream a = pair.a();
    Stream b = pair.b();
    CompletableFuture<Void> signal = new CompletableFuture<>();
    CountDownLatch bRan = new CountDownLatch(1);
    AtomicBoolean sawB = new AtomicBoolean();
    b.waitFor(signal);
    b.launch("b", bRan::countDown);
    a.launch(
        "completes b's signal, then waits for b",
        () -> {
          signal.complete(null);
          sawB.set(awaitQuietly(bRan));
        });
    a.synchronize();
    b.synchronize();
    assertTrue(sawB.get(), "b ran while the kernel that released it held its thread");
    assertEquals(0, bRan.getCount());
  }

  /** Waits for {@code latch} at most 10 s; false if it did not open. */
  private static boolean awaitQuietly(CountDownLatch latch) {
    try {
      return latch.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
