package dev.openaccel.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.Stream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

/**
 * The stop window: many threads launch, submit, record, block and query on many streams while
 * {@link Accelerator#close()} runs, round after round, each round its own accelerator. Every launch
 * either returned (its kernel then ran once, or its stream's stop settled it) or threw the
 * documented error; every submitted stage completes, normally exactly when its kernel ran; no
 * kernel starts after {@code close()} returned; every stream's {@code query()} is true afterwards
 * (nothing is left queued or lost); no thread of the accelerator is left.
 */
public abstract class StopWindowTck extends BackendTck {
  private static final int ROUNDS = 200;
  private static final int THREADS = 4;
  private static final int STREAMS_PER_DEVICE = 3;
  private static final int OPS_PER_THREAD = 4_000; // a thread stops earlier once close() returned
  private static final String STOPPED = "accepts no more work";

  // Over all rounds: kernels that ran, launches settled by the stop unrun, calls that threw.
  private final AtomicInteger ranTotal = new AtomicInteger();
  private final AtomicInteger settledUnrun = new AtomicInteger();
  private final AtomicInteger threwTotal = new AtomicInteger();

  @Test
  void closeRacingWithWorkLosesNothingAndRunsNothingLate() throws Exception {
    SplittableRandom seeds = new SplittableRandom(20261207);
    for (int round = 0; round < ROUNDS; round++) {
      new Round(round, seeds.split()).run();
    }
    String totals =
        ranTotal
            + " kernels ran, "
            + settledUnrun
            + " launched were settled by the stop unrun, "
            + threwTotal
            + " calls threw";
    assertTrue(ranTotal.get() > 0 && threwTotal.get() > 0, "the window was never hit: " + totals);
    assertTrue(settledUnrun.get() > 0, "no round stopped with work queued: " + totals);
  }

  /** One accelerator, its streams and events, worker threads, and a close at a random point. */
  private final class Round {
    private final int round;
    private final SplittableRandom random;
    private final String systemName;
    private final AtomicIntegerArray ran = new AtomicIntegerArray(THREADS * OPS_PER_THREAD);
    private final AtomicBoolean closeReturned = new AtomicBoolean();
    private final AtomicInteger lateStarts = new AtomicInteger();
    private final AtomicInteger opsDone = new AtomicInteger();
    private final Map<Integer, CompletableFuture<Integer>> submitted = new ConcurrentHashMap<>();
    private final Map<Integer, Boolean> returned = new ConcurrentHashMap<>();
    private final List<Throwable> unexpected = new ArrayList<>();

    Round(int round, SplittableRandom random) {
      this.round = round;
      this.random = random;
      this.systemName = ("stop-window-" + deviceType().name() + "-" + round).replace('_', '-');
    }

    void run() throws Exception {
      Config config =
          ConfigFactory.parseString("openaccel.system-name = \"" + systemName + "\"")
              .withFallback(backendConfig());
      Accelerator accelerator = Accelerator.start(config);
      List<Stream> streams = new ArrayList<>();
      int devices = Math.min(2, accelerator.deviceCount(deviceType()));
      for (int d = 0; d < devices; d++) {
        for (int s = 0; s < STREAMS_PER_DEVICE; s++) {
          streams.add(accelerator.newStream(device(d)));
        }
      }
      List<List<Event>> events = new ArrayList<>(); // per device: an event records on one
      for (int d = 0; d < devices; d++) {
        List<Event> ofDevice = new ArrayList<>();
        for (int e = 0; e < 2; e++) {
          ofDevice.add(accelerator.newEvent(deviceType(), EventOptions.defaults()));
        }
        events.add(ofDevice);
      }
      List<Thread> workers = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int first = t * OPS_PER_THREAD;
        SplittableRandom own = random.split();
        Thread worker =
            new Thread(() -> work(first, own, streams, events), systemName + "-producer-" + t);
        workers.add(worker);
        worker.start();
      }
      int closeAfter = random.nextInt(THREADS * OPS_PER_THREAD / 4);
      long deadline = System.nanoTime() + WAIT.toNanos();
      while (opsDone.get() < closeAfter
          && System.nanoTime() < deadline
          && workers.stream().anyMatch(Thread::isAlive)) {
        Thread.onSpinWait(); // close at a random point of the work, not after a sleep
      }
      accelerator.close();
      closeReturned.set(true);
      for (Thread worker : workers) {
        worker.join(WAIT.toMillis());
        assertFalse(worker.isAlive(), what("a producer thread did not finish"));
      }
      check(streams);
      assertNoThreadLeft();
    }

    private void work(
        int first, SplittableRandom own, List<Stream> streams, List<List<Event>> events) {
      boolean rejectedAfterClose = false;
      for (int i = 0; i < OPS_PER_THREAD && !rejectedAfterClose; i++) {
        int id = first + i;
        Stream stream = streams.get(own.nextInt(streams.size()));
        List<Event> ofDevice = events.get(stream.deviceIndex());
        Event event = ofDevice.get(own.nextInt(ofDevice.size()));
        boolean afterClose = closeReturned.get();
        int op = own.nextInt(6);
        try {
          switch (op) {
            case 0, 1 -> {
              stream.launch("k" + id, () -> ran(id));
              returned.put(id, Boolean.TRUE);
            }
            case 2 -> {
              CompletableFuture<Integer> stage =
                  stream.submit("s" + id, () -> ran(id)).toCompletableFuture();
              returned.put(id, Boolean.TRUE);
              submitted.put(id, stage);
            }
            case 3 -> event.record(stream);
            case 4 -> event.block(stream);
            default -> {
              stream.query();
              event.query();
            }
          }
          if (afterClose && op <= 3) { // a block may have nothing to wait for, a query never throws
            fail(what("work was accepted after close() returned"));
          }
        } catch (IllegalStateException stopped) {
          threwTotal.incrementAndGet();
          if (stopped.getMessage() == null || !stopped.getMessage().contains(STOPPED)) {
            record(stopped);
          }
          rejectedAfterClose = afterClose;
        } catch (Throwable other) {
          record(other);
          return;
        }
        opsDone.incrementAndGet();
      }
    }

    private int ran(int id) {
      if (closeReturned.get()) {
        lateStarts.incrementAndGet();
      }
      return ran.incrementAndGet(id);
    }

    private synchronized void record(Throwable t) {
      unexpected.add(t);
    }

    private void check(List<Stream> streams) throws InterruptedException {
      synchronized (this) {
        if (!unexpected.isEmpty()) {
          AssertionError error = new AssertionError(what("unexpected error"), unexpected.get(0));
          unexpected.stream().skip(1).forEach(error::addSuppressed);
          throw error;
        }
      }
      assertEquals(0, lateStarts.get(), what("kernels started after close() returned"));
      for (int id = 0; id < ran.length(); id++) {
        int times = ran.get(id);
        assertTrue(times <= 1, what("kernel " + id + " ran " + times + " times"));
        assertTrue(
            times == 0 || returned.containsKey(id),
            what("kernel " + id + " ran although its launch threw"));
        ranTotal.addAndGet(times);
        if (times == 0 && returned.containsKey(id)) {
          settledUnrun.incrementAndGet();
        }
      }
      for (Map.Entry<Integer, CompletableFuture<Integer>> entry : submitted.entrySet()) {
        CompletableFuture<Integer> stage = entry.getValue();
        assertTrue(stage.isDone(), what("submit " + entry.getKey() + " never completed"));
        try {
          assertEquals(1, stage.join(), what("submit " + entry.getKey() + "'s value"));
        } catch (RuntimeException failed) {
          Throwable cause = failed.getCause() == null ? failed : failed.getCause();
          assertEquals(
              0, ran.get(entry.getKey()), what("submit " + entry.getKey() + " ran but failed"));
          assertTrue(
              String.valueOf(cause.getMessage()).contains(STOPPED),
              what("submit " + entry.getKey() + " failed with " + cause));
        }
      }
      for (Stream stream : streams) {
        assertTrue(stream.query(), what(stream + " has work that never settled"));
        ExecutionException rejected =
            assertThrows(
                ExecutionException.class,
                () -> await(stream.synchronizeAsync()),
                what("a sync of " + stream + " after close"));
        assertTrue(
            String.valueOf(rejected.getCause().getMessage()).contains(STOPPED),
            what("a sync after close failed with " + rejected.getCause()));
        IllegalStateException misuse =
            assertThrows(IllegalStateException.class, stream::synchronize);
        assertTrue(
            String.valueOf(misuse.getMessage()).contains(STOPPED),
            what("synchronize() after close threw " + misuse));
      }
    }

    private void assertNoThreadLeft() throws InterruptedException {
      long deadline = System.nanoTime() + WAIT.toNanos();
      for (Thread thread : Thread.getAllStackTraces().keySet()) {
        if (thread.getName().startsWith(systemName + "-")
            && !thread.getName().contains("producer")) {
          thread.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
          assertFalse(thread.isAlive(), what("thread " + thread.getName() + " is left"));
        }
      }
    }

    private String what(String problem) {
      return "round " + round + " (" + deviceType() + "): " + problem;
    }
  }
}
