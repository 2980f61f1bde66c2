package dev.openaccel.openreg.random;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.Stream;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Host threads that, while a random program runs, record one shared event on the program's streams
 * of device 0 and block the program's streams (of any device) on it, all at once. Each racer makes
 * at most {@link #CALLS} calls per program, so the streams' backlog stays bounded.
 */
final class Racers {
  static final int CALLS = 200;

  private final AtomicBoolean running = new AtomicBoolean(true);
  private final List<CompletableFuture<Void>> threads = new ArrayList<>();
  // Threads of their own: the common pool may run one task at a time on a small machine.
  private final ExecutorService pool;
  private final Event shared;

  Racers(Accelerator accelerator, List<Stream> streams, int count, long seed) {
    this.shared = accelerator.newEvent();
    this.pool = Executors.newFixedThreadPool(Math.max(1, count));
    List<Stream> device0 = streams.stream().filter(s -> s.deviceIndex() == 0).toList();
    for (int r = 0; r < count; r++) {
      SplittableRandom random = new SplittableRandom(seed * 31 + r);
      threads.add(
          CompletableFuture.runAsync(
              () -> {
                for (int call = 0; call < CALLS && running.get(); call++) {
                  if (random.nextBoolean()) {
                    shared.record(device0.get(random.nextInt(device0.size())));
                  } else {
                    shared.block(streams.get(random.nextInt(streams.size())));
                  }
                }
              },
              pool));
    }
  }

  /** Stops the racers and waits for them, at most 10 s; rethrows what a racer threw. Idempotent. */
  void stop() {
    if (!running.getAndSet(false)) {
      return;
    }
    try {
      CompletableFuture.allOf(threads.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError("a racing host thread failed or hung: " + e, e);
    } finally {
      pool.shutdownNow();
      shared.close();
    }
  }
}
