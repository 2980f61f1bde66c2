package dev.openaccel.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Stream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.Test;

/**
 * Conformance of the bound on a stream's queue ({@code openaccel.stream-queue-limit}): a full
 * stream makes a plain thread wait for room, up to {@code openaccel.stream-queue-wait} and
 * interruptibly; an actor is refused at once and admitted in order through {@code launchAsync}; no
 * bound (0) never waits; closing the stream releases whoever waits. Each test runs its own
 * accelerator with a bound of {@value #LIMIT}.
 */
public abstract class StreamBoundTck extends BackendTck {
  private static final int LIMIT = 4;

  @Test
  void aFullStreamMakesAPlainThreadWaitUntilThereIsRoom() throws Exception {
    withBound(
        LIMIT,
        "30s",
        (acc, stream, gate) -> {
          List<Integer> order = Collections.synchronizedList(new ArrayList<>());
          for (int i = 1; i < LIMIT; i++) {
            int k = i;
            stream.launch("queued" + i, () -> order.add(k));
          }
          assertEquals(LIMIT, stream.pendingWork(), about("pending work of the full stream"));
          Thread waiter = start(() -> stream.launch("beyond", () -> order.add(LIMIT)));
          awaitParked(waiter);
          gate.countDown();
          waiter.join(WAIT.toMillis());
          assertFalse(waiter.isAlive(), about("the waiting launch returned once there was room"));
          stream.synchronize();
          assertEquals(List.of(1, 2, 3, 4), order, about("kernels ran in enqueue order"));
        });
  }

  @Test
  void noRoomWithinTheWaitFailsClearlyAndTheStreamStaysUsable() throws Exception {
    withBound(
        LIMIT,
        "20ms",
        (acc, stream, gate) -> {
          fill(stream);
          IllegalStateException full =
              assertThrows(IllegalStateException.class, () -> stream.launch("beyond", () -> {}));
          assertMessage(full, "queue full", "openaccel.stream-queue-limit", "its limit is 4");
          assertMessage(full, "openaccel.stream-queue-wait");
          gate.countDown();
          stream.launch("after", () -> {});
          stream.synchronize();
        });
  }

  @Test
  void anInterruptedWaitFailsAndKeepsTheInterrupt() throws Exception {
    withBound(
        LIMIT,
        "30s",
        (acc, stream, gate) -> {
          fill(stream);
          AtomicReference<Throwable> thrown = new AtomicReference<>();
          AtomicReference<Boolean> stillInterrupted = new AtomicReference<>();
          Thread waiter = launchBeyond(stream, thrown, stillInterrupted);
          awaitParked(waiter);
          waiter.interrupt();
          waiter.join(WAIT.toMillis());
          assertTrue(thrown.get() instanceof IllegalStateException, about("got " + thrown.get()));
          assertMessage((IllegalStateException) thrown.get(), "queue full", "interrupted");
          assertEquals(Boolean.TRUE, stillInterrupted.get(), about("the interrupt flag"));
        });
  }

  @Test
  void anActorIsRefusedAtOnceAndAdmittedInOrderThroughLaunchAsync() throws Exception {
    withBound(
        LIMIT,
        "30s",
        (acc, stream, gate) -> {
          fill(stream);
          List<Integer> order = Collections.synchronizedList(new ArrayList<>());
          CompletableFuture<Throwable> refused = new CompletableFuture<>();
          CompletableFuture<List<CompletionStage<Void>>> stages = new CompletableFuture<>();
          acc.system()
              .systemActorOf(
                  Behaviors.<String>receiveMessage(
                      message -> {
                        try {
                          stream.launch("blocking", () -> order.add(-1));
                          refused.complete(null);
                        } catch (RuntimeException e) {
                          refused.complete(e);
                        }
                        List<CompletionStage<Void>> admitted = new ArrayList<>();
                        for (int i = 0; i < 3; i++) {
                          int k = i;
                          admitted.add(stream.launchAsync("async" + i, () -> order.add(k)));
                        }
                        stages.complete(admitted);
                        return Behaviors.stopped();
                      }),
                  "bounded-launcher",
                  Props.empty())
              .tell("go");
          Throwable e = refused.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
          assertTrue(e instanceof IllegalStateException, about("the blocking launch threw " + e));
          assertMessage((IllegalStateException) e, "queue full", "launchAsync");
          List<CompletionStage<Void>> admitted = stages.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
          for (CompletionStage<Void> stage : admitted) {
            assertFalse(stage.toCompletableFuture().isDone(), about("admitted while full"));
          }
          gate.countDown();
          for (CompletionStage<Void> stage : admitted) {
            await(stage);
          }
          stream.synchronize();
          assertEquals(List.of(0, 1, 2), order, about("launchAsync kernels, in order"));
        });
  }

  @Test
  void withoutABoundNothingWaits() throws Exception {
    withBound(
        0,
        "20ms",
        (acc, stream, gate) -> {
          for (int i = 0; i < 10_000; i++) {
            stream.launch("k", () -> {});
          }
          assertEquals(10_001, stream.pendingWork(), about("pending work without a bound"));
        });
  }

  @Test
  void closingTheStreamReleasesWhoeverWaitsForRoom() throws Exception {
    withBound(
        LIMIT,
        "30s",
        (acc, stream, gate) -> {
          fill(stream);
          AtomicReference<Throwable> thrown = new AtomicReference<>();
          Thread waiter = launchBeyond(stream, thrown, new AtomicReference<>());
          awaitParked(waiter);
          CompletionStage<Void> later = stream.launchAsync("later", () -> {});
          stream.close();
          waiter.join(WAIT.toMillis());
          assertFalse(waiter.isAlive(), about("a waiter still parked after close"));
          assertMessage((IllegalStateException) thrown.get(), "accepts no more work");
          Throwable failed = assertThrows(Exception.class, () -> await(later));
          assertTrue(
              String.valueOf(failed.getCause()).contains("accepts no more work"),
              about("a waiting launchAsync after close: " + failed.getCause()));
        });
  }

  /** A test body with an accelerator of its own, a stream of it and a gate holding the stream. */
  private interface Body {
    void run(Accelerator accelerator, Stream stream, CountDownLatch gate) throws Exception;
  }

  private void withBound(int limit, String wait, Body body) throws Exception {
    String name = ("stream-bound-" + deviceType().name()).replace('_', '-');
    Accelerator accelerator =
        Accelerator.start(
            ConfigFactory.parseString(
                    "openaccel.system-name = \""
                        + name
                        + "\"\nopenaccel.stream-queue-limit = "
                        + limit
                        + "\nopenaccel.stream-queue-wait = "
                        + wait)
                .withFallback(backendConfig()));
    CountDownLatch gate = new CountDownLatch(1);
    try {
      Stream stream = accelerator.newStream(device(0));
      stream.launch("held", () -> Gates.await(gate));
      body.run(accelerator, stream, gate);
    } finally {
      gate.countDown();
      accelerator.close();
    }
  }

  private static void fill(Stream stream) {
    for (int i = 1; i < LIMIT; i++) {
      stream.launch("queued" + i, () -> {});
    }
  }

  // A thread launching one more kernel; what it throws, and whether its interrupt flag was set
  // then.
  private static Thread launchBeyond(
      Stream stream, AtomicReference<Throwable> thrown, AtomicReference<Boolean> interrupted) {
    return start(
        () -> {
          try {
            stream.launch("beyond", () -> {});
          } catch (IllegalStateException e) {
            thrown.set(e);
            interrupted.set(Thread.currentThread().isInterrupted());
          }
        });
  }

  private static Thread start(Runnable body) {
    Thread thread = new Thread(body, "bounded-producer");
    thread.start();
    return thread;
  }

  // Waits (bounded) until the producer thread parks: it then waits for room in the queue.
  private void awaitParked(Thread thread) {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (thread.getState() != Thread.State.TIMED_WAITING) {
      assertTrue(System.nanoTime() < deadline, about(thread + " never waited for room"));
      assertTrue(thread.isAlive(), about(thread + " ended instead of waiting for room"));
      Thread.yield();
    }
  }

  private void assertMessage(IllegalStateException e, String... parts) {
    for (String part : parts) {
      Supplier<String> what = about("'" + part + "' in: " + e.getMessage());
      assertTrue(String.valueOf(e.getMessage()).contains(part), what);
    }
  }
}
