package dev.openaccel.runtime.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.DeviceExecutionException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@link InFlight} on its own: ends arrive on any thread and in any order, the actor hears of them
 * through one signal per batch, and entries settle from the front, each once, in submission order.
 * The test thread plays the stream's actor: it takes each signal and settles.
 */
class InFlightTest {
  private final LinkedBlockingQueue<Object> signals = new LinkedBlockingQueue<>();
  private final AtomicInteger sent = new AtomicInteger();
  private final InFlight inFlight =
      new InFlight(
          () -> {
            sent.incrementAndGet();
            signals.add(this);
          });

  /** Takes one signal (bounded wait) and settles, as the actor does on its message. */
  private void actorTurn() throws InterruptedException {
    assertNotNull(signals.poll(10, TimeUnit.SECONDS), "no signal arrived");
    inFlight.settleEnded();
  }

  @Test
  void endsFromManyThreadsInAnyOrderSettleInSubmissionOrderEachOnce() throws Exception {
    int count = 5_000;
    List<Integer> settled = new ArrayList<>();
    List<InFlight.Entry> entries = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      int index = i;
      entries.add(
          inFlight.add(
              (nanos, failure) -> {
                assertEquals(1_000L + index, nanos, "entry " + index + "'s own end time");
                assertNull(failure);
                settled.add(index);
              },
              1));
    }
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      order.add(i);
    }
    Collections.shuffle(order, new Random(7));
    ExecutorService enders = Executors.newFixedThreadPool(4);
    CountDownLatch done = new CountDownLatch(4);
    try {
      for (int t = 0; t < 4; t++) {
        List<Integer> share = order.subList(t * count / 4, (t + 1) * count / 4);
        enders.execute(
            () -> {
              share.forEach(i -> entries.get(i).complete(1_000L + i));
              done.countDown();
            });
      }
      while (settled.size() < count) {
        actorTurn();
      }
      assertTrue(done.await(10, TimeUnit.SECONDS));
    } finally {
      enders.shutdownNow();
    }
    for (int i = 0; i < count; i++) {
      assertEquals(i, settled.get(i), "settle order at " + i);
    }
    assertTrue(inFlight.isEmpty());
    assertTrue(sent.get() <= count, "at most a signal per end, got " + sent.get());
  }

  @Test
  void aRunOfEndsBeforeTheActorsTurnCostsOneSignal() throws Exception {
    List<InFlight.Entry> entries = new ArrayList<>();
    AtomicInteger settled = new AtomicInteger();
    for (int i = 0; i < 64; i++) {
      entries.add(inFlight.add((nanos, failure) -> settled.incrementAndGet(), 1));
    }
    for (int i = 63; i >= 0; i--) { // a report that completes a run, last first
      entries.get(i).complete(i + 1);
    }
    assertEquals(1, sent.get(), "one signal for the run");
    actorTurn();
    assertEquals(64, settled.get());
    assertTrue(inFlight.isEmpty());

    InFlight.Entry later = inFlight.add((nanos, failure) -> settled.incrementAndGet(), 1);
    later.complete(99);
    assertEquals(2, sent.get(), "an end after the actor settled signals again");
    actorTurn();
    assertEquals(65, settled.get());
  }

  @Test
  void anEntryWithTwoEndsSettlesOnlyAfterBothAndKeepsTheFirstFailure() throws Exception {
    List<DeviceExecutionException> failures = new ArrayList<>();
    InFlight.Entry wait = inFlight.add((nanos, failure) -> failures.add(failure), 2, true);
    assertTrue(inFlight.fillingHeap());
    wait.fail(new IllegalStateException("the device's wait failed"));
    assertEquals(0, sent.get(), "one end of two: nothing to settle yet");
    wait.fail(new IllegalStateException("the record failed too"));
    actorTurn();
    assertEquals(1, failures.size());
    assertTrue(
        failures.get(0).getMessage().contains("the device's wait failed"),
        failures.get(0).getMessage());
    assertTrue(!inFlight.fillingHeap() && inFlight.isEmpty());
  }

  @Test
  void anEndedEntryWaitsForTheEntriesBeforeIt() throws Exception {
    List<String> settled = new ArrayList<>();
    InFlight.Entry first = inFlight.add((nanos, failure) -> settled.add("first"), 1);
    InFlight.Entry second = inFlight.add((nanos, failure) -> settled.add("second"), 1);
    second.complete(2);
    actorTurn();
    assertEquals(List.of(), settled, "the second may not settle before the first");
    first.complete(1);
    actorTurn();
    assertEquals(List.of("first", "second"), settled);
  }
}
