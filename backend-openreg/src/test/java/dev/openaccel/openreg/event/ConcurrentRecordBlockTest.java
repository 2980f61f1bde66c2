package dev.openaccel.openreg.event;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.openaccel.openreg.OpenRegProvider;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.Stream;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A record and its place in its stream are one step for every concurrent caller: one thread records
 * an event while another blocks streams on it, and no stream ever waits for a record that was
 * enqueued after its wait (which would deadlock a stream that waits on itself).
 */
class ConcurrentRecordBlockTest {
  private static final int ROUNDS = 5;
  private static final int PAIRS = 20_000;
  private static Accelerator accelerator;

  @BeforeAll
  static void start() {
    accelerator =
        Accelerator.start(ConfigFactory.parseString("openaccel.system-name = record-block"));
  }

  @AfterAll
  static void stop() {
    accelerator.close();
  }

  private static Stream stream(int device) {
    return accelerator.newStream(Device.of(OpenRegProvider.TYPE, device));
  }

  /** Thread A records {@code event} on {@code recordOn} while thread B blocks {@code blockOn}. */
  private static void race(Event event, Stream recordOn, Stream blockOn) throws Exception {
    CyclicBarrier start = new CyclicBarrier(2);
    // Two threads of their own: the common pool may run one task at a time on a small machine.
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try {
      Future<?> recorder =
          threads.submit(
              () -> {
                await(start);
                for (int i = 0; i < PAIRS; i++) {
                  event.record(recordOn);
                }
              });
      Future<?> blocker =
          threads.submit(
              () -> {
                await(start);
                for (int i = 0; i < PAIRS; i++) {
                  event.block(blockOn);
                }
              });
      recorder.get(60, TimeUnit.SECONDS);
      blocker.get(60, TimeUnit.SECONDS);
    } finally {
      threads.shutdownNow();
    }
  }

  private static void await(CyclicBarrier barrier) {
    try {
      barrier.await(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static void assertDrains(Stream stream, int round) throws Exception {
    stream.synchronizeAsync().toCompletableFuture().get(30, TimeUnit.SECONDS);
    assertTrue(stream.query(), "stream wedged in round " + round + ": " + stream);
  }

  @Test
  void recordAndBlockOfOneEventOnOneStreamNeverDeadlock() throws Exception {
    for (int round = 0; round < ROUNDS; round++) {
      Stream stream = stream(0);
      try (Event event = accelerator.newEvent()) {
        race(event, stream, stream);
        assertDrains(stream, round);
      }
    }
  }

  @Test
  void recordOnOneStreamAndBlockOnAnotherNeverDeadlock() throws Exception {
    for (int round = 0; round < ROUNDS; round++) {
      Stream recording = stream(0);
      Stream waiting = stream(0);
      try (Event event = accelerator.newEvent()) {
        race(event, recording, waiting);
        assertDrains(recording, round);
        assertDrains(waiting, round);
      }
    }
  }

  @Test
  void recordOnOneDeviceAndBlockOnAnotherNeverDeadlock() throws Exception {
    for (int round = 0; round < ROUNDS; round++) {
      Stream recording = stream(0);
      Stream waiting = stream(1);
      try (Event event = accelerator.newEvent()) {
        race(event, recording, waiting);
        assertDrains(recording, round);
        assertDrains(waiting, round);
      }
    }
  }
}
