package dev.openaccel.runtime.internal.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.Capability;
import dev.openaccel.runtime.spi.Completion;
import dev.openaccel.runtime.spi.DeviceExecutor;
import dev.openaccel.runtime.spi.DeviceQueue;
import dev.openaccel.runtime.spi.DeviceWork;
import dev.openaccel.runtime.spi.EngineSpec;
import dev.openaccel.runtime.spi.Marker;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.junit.jupiter.api.Test;

/**
 * The engine over a device whose queues run work in order but report ends chaotically: inline
 * inside submit when idle, on the queue thread, or from a pool of reporter threads after random
 * delays, so reports reach the engine out of order and from many threads; it also declines device
 * waits at random and fails some work. Through random programs on several streams (device work,
 * Java kernels, records, blocks, stream waits, syncs) every piece of work is submitted and ended
 * once, each stream runs in order, a Java kernel runs only after the device work before it was
 * reported, no sync hangs or hides its own stream's failure, and a shutdown in mid-flight ends or
 * discards each piece once.
 */
class ChaoticReportsTest {
  private static final DeviceType TYPE = DeviceType.of("chaos");
  private static final Device D0 = Device.of(TYPE, 0);

  static final class Work implements DeviceWork {
    final Stream stream;
    final long seq;
    final boolean fails;
    final AtomicInteger ends = new AtomicInteger();
    final AtomicInteger discards = new AtomicInteger();
    final AtomicInteger submits = new AtomicInteger();
    final Set<Long> reported;
    final List<Long> log;

    Work(Stream stream, long seq, boolean fails, Set<Long> reported, List<Long> log) {
      this.stream = stream;
      this.seq = seq;
      this.fails = fails;
      this.reported = reported;
      this.log = log;
    }

    @Override
    public void discard() {
      discards.incrementAndGet();
    }
  }

  static final class ChaosMarker implements Marker {
    final CompletableFuture<Long> reached = new CompletableFuture<>();

    @Override
    public void release() {}
  }

  static final class Chaos implements DeviceExecutor {
    final ScheduledExecutorService reporters = Executors.newScheduledThreadPool(4);
    final List<String> violations = new CopyOnWriteArrayList<>();

    @Override
    public DeviceQueue open(Stream stream) {
      return new ChaosQueue(this);
    }
  }

  static final class ChaosQueue implements DeviceQueue {
    final Chaos chaos;
    final ExecutorService thread = Executors.newSingleThreadExecutor(r -> daemon(r));
    final AtomicInteger pending = new AtomicInteger();

    ChaosQueue(Chaos chaos) {
      this.chaos = chaos;
    }

    static Thread daemon(Runnable r) {
      Thread t = new Thread(r, "chaos-queue");
      t.setDaemon(true);
      return t;
    }

    private void report(Runnable end) {
      int how = ThreadLocalRandom.current().nextInt(3);
      if (how == 0) {
        end.run();
      } else {
        chaos.reporters.schedule(
            end, ThreadLocalRandom.current().nextInt(how == 1 ? 50 : 2000), TimeUnit.MICROSECONDS);
      }
    }

    private void run(Runnable body) {
      // inline (as a synchronous device would) only when nothing is pending: order is kept
      if (pending.get() == 0 && ThreadLocalRandom.current().nextInt(4) == 0) {
        body.run();
        return;
      }
      pending.incrementAndGet();
      thread.execute(
          () -> {
            try {
              body.run();
            } finally {
              pending.decrementAndGet();
            }
          });
    }

    @Override
    public void submit(DeviceWork work, Completion done) {
      Work w = (Work) work;
      if (w.submits.incrementAndGet() != 1) {
        chaos.violations.add("submitted twice: " + w.seq);
      }
      if (w.discards.get() != 0) {
        chaos.violations.add("submitted after discard: " + w.seq);
      }
      run(
          () -> {
            w.log.add(w.seq);
            report(
                () -> {
                  w.reported.add(w.seq);
                  if (w.ends.incrementAndGet() != 1) {
                    chaos.violations.add("ended twice: " + w.seq);
                  }
                  if (w.fails) {
                    done.fail(new IllegalStateException("injected failure " + w.seq));
                  } else {
                    done.complete(System.nanoTime());
                  }
                });
          });
    }

    @Override
    public Marker mark(Completion done) {
      ChaosMarker marker = new ChaosMarker();
      run(
          () -> {
            long now = System.nanoTime();
            marker.reached.complete(now);
            report(() -> done.complete(now));
          });
      return marker;
    }

    @Override
    public boolean waitFor(Marker marker, Completion done) {
      if (!(marker instanceof ChaosMarker m)) {
        return false;
      }
      if (ThreadLocalRandom.current().nextInt(5) == 0) {
        return false; // declines sometimes: the engine parks instead
      }
      pending.incrementAndGet();
      thread.execute(
          () -> {
            try {
              m.reached.get(30, TimeUnit.SECONDS);
              report(() -> done.complete(System.nanoTime()));
            } catch (Exception e) {
              report(() -> done.fail(e));
            } finally {
              pending.decrementAndGet();
            }
          });
      return true;
    }

    @Override
    public void close() {
      thread.shutdown();
    }
  }

  private static ActorEngine start(ActorTestKit kit, Chaos chaos, int computeUnits) {
    return Engines.start(
        kit.system(),
        EngineSpec.builder(TYPE)
            .computeUnits(computeUnits)
            .capabilities(Capability.EVENTS)
            .executor(chaos)
            .build());
  }

  /** Random mixes of device work, Java kernels, events, waits and syncs on several streams. */
  @Test
  void randomInterleavingsSettleEveryItemOnceInOrder() throws Exception {
    ActorTestKit kit = ActorTestKit.create();
    Chaos chaos = new Chaos();
    ActorEngine engine = start(kit, chaos, 3);
    int streamCount = 4;
    List<Stream> streams = new ArrayList<>();
    for (int i = 0; i < streamCount; i++) {
      streams.add(engine.getNewStream(D0, 0));
    }
    ConcurrentLinkedQueue<Event> recorded = new ConcurrentLinkedQueue<>();
    List<Work> allWork = new CopyOnWriteArrayList<>();
    List<String> problems = new CopyOnWriteArrayList<>();
    ExecutorService producers = Executors.newFixedThreadPool(streamCount);
    List<CompletableFuture<Void>> done = new ArrayList<>();
    for (int s = 0; s < streamCount; s++) {
      Stream stream = streams.get(s);
      int seed = s;
      done.add(
          CompletableFuture.runAsync(
              () -> {
                Random random = new Random(seed);
                Set<Long> reported = ConcurrentHashMap.newKeySet();
                List<Long> log = new CopyOnWriteArrayList<>();
                List<Long> deviceSeqs = new ArrayList<>();
                long seq = 0;
                boolean failedSinceSync = false;
                for (int i = 0; i < 3000; i++) {
                  int op = random.nextInt(100);
                  seq++;
                  if (op < 55) {
                    boolean fails = random.nextInt(60) == 0;
                    failedSinceSync |= fails;
                    Work w = new Work(stream, seq, fails, reported, log);
                    allWork.add(w);
                    deviceSeqs.add(seq);
                    engine.enqueue(stream, "w" + seq, w);
                  } else if (op < 70) {
                    long mine = seq;
                    List<Long> before = List.copyOf(deviceSeqs);
                    stream.launch(
                        "j" + mine,
                        () -> {
                          log.add(mine);
                          for (long b : before) {
                            if (!reported.contains(b)) {
                              problems.add(stream + ": java kernel " + mine + " ran before " + b);
                              break;
                            }
                          }
                        });
                  } else if (op < 80) {
                    Event e = Engines.newEvent(engine, EventOptions.defaults());
                    e.record(stream);
                    recorded.add(e);
                    if (recorded.size() > 50) {
                      recorded.poll();
                    }
                  } else if (op < 90) {
                    Event e = recorded.peek();
                    if (e != null) {
                      e.block(stream);
                    }
                  } else if (op < 95) {
                    streams.get(random.nextInt(streamCount)).waitStream(stream);
                  } else {
                    try {
                      stream.synchronizeAsync().toCompletableFuture().get(30, TimeUnit.SECONDS);
                      if (failedSinceSync) {
                        // a failure may also come through a wait; but an own failure must show
                        problems.add(stream + ": sync at " + seq + " hid an own failure");
                      }
                    } catch (ExecutionException e) {
                      if (!(e.getCause() instanceof DeviceExecutionException)) {
                        problems.add(stream + ": sync threw " + e.getCause());
                      }
                    } catch (TimeoutException e) {
                      problems.add(stream + ": sync at " + seq + " hung");
                      return;
                    } catch (InterruptedException e) {
                      return;
                    }
                    failedSinceSync = false;
                  }
                }
                try {
                  stream.synchronizeAsync().toCompletableFuture().get(30, TimeUnit.SECONDS);
                } catch (ExecutionException expected) {
                  // may carry a failure
                } catch (Exception e) {
                  problems.add(stream + ": final sync " + e);
                }
                List<Long> sorted = new ArrayList<>(log);
                sorted.sort(Long::compare);
                if (!sorted.equals(log)) {
                  problems.add(stream + ": ran out of order");
                }
              },
              producers));
    }
    try {
      CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).get(300, TimeUnit.SECONDS);
      for (Stream stream : streams) {
        try {
          stream.synchronizeAsync().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException expected) {
          // a failure that came in through a wait after the last own sync
        }
      }
      assertTrue(
          Engines.eventually(() -> streams.stream().allMatch(Stream::query)), "all queries true");
      for (Work w : allWork) {
        if (w.ends.get() != 1 || w.discards.get() != 0) {
          problems.add("work " + w.seq + " ends=" + w.ends + " discards=" + w.discards);
        }
      }
      problems.addAll(chaos.violations);
      if (!problems.isEmpty()) {
        fail(
            problems.size()
                + " problems, first: "
                + problems.subList(0, Math.min(10, problems.size())));
      }
    } finally {
      producers.shutdownNow();
      kit.shutdownTestKit();
      chaos.reporters.shutdownNow();
    }
  }

  /** Shutting down with work in flight and queued: each piece is ended or discarded, once. */
  @Test
  void shutdownMidFlightEndsOrDiscardsEachWorkOnce() throws Exception {
    for (int round = 0; round < 10; round++) {
      ActorTestKit kit = ActorTestKit.create();
      Chaos chaos = new Chaos();
      ActorEngine engine = start(kit, chaos, 2);
      List<Stream> streams = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        streams.add(engine.getNewStream(D0, 0));
      }
      List<Work> allWork = new CopyOnWriteArrayList<>();
      List<CompletableFuture<Void>> syncs = new CopyOnWriteArrayList<>();
      Set<Long> reported = ConcurrentHashMap.newKeySet();
      List<Long> log = new CopyOnWriteArrayList<>();
      AtomicInteger seqs = new AtomicInteger();
      List<Thread> threads = new ArrayList<>();
      CountDownLatch underWay = new CountDownLatch(3); // each producer far enough for this round
      int shutdownAfter = round * 300;
      for (int t = 0; t < 3; t++) {
        int id = t;
        Thread thread =
            new Thread(
                () -> {
                  Random random = new Random(id);
                  for (int i = 0; i < 5000; i++) {
                    if (i == shutdownAfter) {
                      underWay.countDown();
                    }
                    Stream stream = streams.get(random.nextInt(streams.size()));
                    try {
                      int op = random.nextInt(10);
                      if (op < 6) {
                        Work w = new Work(stream, seqs.incrementAndGet(), false, reported, log);
                        allWork.add(w);
                        engine.enqueue(stream, "w", w);
                      } else if (op < 8) {
                        streams.get(random.nextInt(streams.size())).waitStream(stream);
                      } else {
                        syncs.add(stream.synchronizeAsync().toCompletableFuture());
                      }
                    } catch (IllegalStateException stopped) {
                      // accepts no more work
                    }
                  }
                });
        threads.add(thread);
        thread.start();
      }
      assertTrue(underWay.await(30, TimeUnit.SECONDS), "the producers got under way");
      kit.shutdownTestKit(); // somewhere else in the producers' programs each round
      for (Thread thread : threads) {
        thread.join(30_000);
      }
      List<String> problems = new ArrayList<>(chaos.violations);
      // reports scheduled before the shutdown may still arrive: wait for them
      Engines.eventually(() -> allWork.stream().allMatch(w -> w.submits.get() == w.ends.get()));
      for (Work w : allWork) {
        int settled = w.ends.get() + w.discards.get();
        if (settled != 1 || w.submits.get() + w.discards.get() != 1) {
          problems.add(
              "work "
                  + w.seq
                  + " submits="
                  + w.submits
                  + " ends="
                  + w.ends
                  + " discards="
                  + w.discards);
        }
      }
      for (CompletableFuture<Void> sync : syncs) {
        try {
          sync.get(10, TimeUnit.SECONDS);
        } catch (ExecutionException expected) {
          // stopped
        } catch (TimeoutException e) {
          problems.add("a sync never completed after shutdown");
          break;
        }
      }
      chaos.reporters.shutdownNow();
      if (!problems.isEmpty()) {
        fail(
            "round "
                + round
                + ": "
                + problems.size()
                + " problems, first: "
                + problems.subList(0, Math.min(10, problems.size())));
      }
    }
  }
}
