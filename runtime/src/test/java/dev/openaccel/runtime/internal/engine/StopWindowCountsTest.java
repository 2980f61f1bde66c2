package dev.openaccel.runtime.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.Capability;
import dev.openaccel.runtime.spi.EngineSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The stop window to exact counts, from inside the engine: threads launch, submit, record, block
 * and query on several streams while the actor system terminates, round after round. Afterwards
 * each stream's completed count equals its reserved count exactly (nothing lost, nothing counted
 * twice), every submit settled (normally exactly when it ran), no kernel ran twice or after the
 * termination, and every producer that lost the race got the documented error. With a synchronous
 * executor and with asynchronous device queues ({@link QueueDevice}).
 */
class StopWindowCountsTest {
  private static final DeviceType TYPE = DeviceType.of("stopwindow");
  private static final int ROUNDS = 100;
  private static final int THREADS = 3;
  private static final int STREAMS = 4;
  private static final int OPS = 3_000;

  @ParameterizedTest(name = "device queues: {0}")
  @ValueSource(booleans = {false, true})
  void everyStreamSettlesExactlyWhatWasReserved(boolean deviceQueues) throws Exception {
    SplittableRandom seeds = new SplittableRandom(deviceQueues ? 7 : 11);
    int settledUnrun = 0;
    for (int round = 0; round < ROUNDS; round++) {
      settledUnrun += round(round, deviceQueues, seeds.split());
    }
    assertTrue(settledUnrun > 0, "no round stopped with submitted work queued");
  }

  /** One round; returns how many submits the stop settled without running them. */
  private int round(int round, boolean deviceQueues, SplittableRandom random) throws Exception {
    ActorTestKit kit = ActorTestKit.create("stop-window-" + round);
    EngineSpec.Builder spec =
        EngineSpec.builder(TYPE).computeUnits(2).capabilities(Capability.EVENTS);
    ActorEngine engine =
        Engines.start(
            kit.system(), (deviceQueues ? spec.executor(new QueueDevice()) : spec).build());
    List<Stream> streams = new ArrayList<>();
    for (int s = 0; s < STREAMS; s++) {
      streams.add(engine.getNewStream(Device.of(TYPE, 0), 0));
    }
    List<Event> events = List.of(Engines.newEvent(engine, EventOptions.defaults()));
    AtomicBoolean terminated = new AtomicBoolean();
    AtomicInteger lateStarts = new AtomicInteger();
    AtomicInteger opsDone = new AtomicInteger();
    ConcurrentLinkedQueue<Throwable> unexpected = new ConcurrentLinkedQueue<>();
    ConcurrentLinkedQueue<int[]> runs = new ConcurrentLinkedQueue<>();
    ConcurrentLinkedQueue<CompletableFuture<int[]>> submits = new ConcurrentLinkedQueue<>();
    List<Thread> producers = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      SplittableRandom own = random.split();
      Thread producer =
          new Thread(
              () -> {
                for (int i = 0; i < OPS; i++) {
                  Stream stream = streams.get(own.nextInt(STREAMS));
                  int[] ran = new int[1];
                  Runnable kernel =
                      () -> {
                        if (terminated.get()) {
                          lateStarts.incrementAndGet();
                        }
                        ran[0]++;
                      };
                  try {
                    switch (own.nextInt(5)) {
                      case 0 -> stream.launch("k", kernel);
                      case 1 ->
                          submits.add(
                              stream
                                  .submit(
                                      "s",
                                      () -> {
                                        kernel.run();
                                        return ran;
                                      })
                                  .toCompletableFuture());
                      case 2 -> events.get(0).record(stream);
                      case 3 -> events.get(0).block(stream);
                      default -> stream.query();
                    }
                    runs.add(ran);
                  } catch (IllegalStateException stopped) {
                    if (!String.valueOf(stopped.getMessage()).contains("accepts no more work")) {
                      unexpected.add(stopped);
                    }
                    if (terminated.get()) {
                      return; // the documented error, after the termination: this thread is done
                    }
                  } catch (Throwable other) {
                    unexpected.add(other);
                    return;
                  }
                  opsDone.incrementAndGet();
                }
              },
              "stop-window-producer-" + t);
      producers.add(producer);
      producer.start();
    }
    int terminateAfter = random.nextInt(THREADS * OPS / 3);
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (opsDone.get() < terminateAfter && System.nanoTime() < deadline) {
      Thread.onSpinWait(); // terminate at a random point of the work, not after a sleep
    }
    kit.shutdownTestKit();
    assertTrue(AfterTermination.get(kit.system()).await(Duration.ofSeconds(10)), "released");
    terminated.set(true);
    for (Thread producer : producers) {
      producer.join(10_000);
      assertFalse(producer.isAlive(), "round " + round + ": a producer did not finish");
    }
    assertTrue(unexpected.isEmpty(), () -> "round " + round + ": " + unexpected);
    assertEquals(0, lateStarts.get(), "round " + round + ": kernels ran after the termination");
    for (int[] ran : runs) {
      assertTrue(ran[0] <= 1, "round " + round + ": a kernel ran " + ran[0] + " times");
    }
    int settledUnrun = 0;
    for (CompletableFuture<int[]> submit : submits) {
      assertTrue(submit.isDone(), "round " + round + ": a submit never settled");
      if (submit.isCompletedExceptionally()) {
        settledUnrun++;
      } else {
        assertEquals(1, submit.join()[0], "round " + round + ": a submit's kernel run count");
      }
    }
    for (Stream stream : streams) {
      StreamQueue queue = engine.handleOf(stream);
      assertEquals(
          queue.enqueued(),
          queue.progress().completed(),
          "round " + round + ": " + stream + " completed exactly what was reserved");
    }
    return settledUnrun;
  }
}
