package dev.openaccel.openreg.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.openreg.OpenRegProvider;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.Stream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The hand-off between a stream's producers and its actor never loses a wake-up: work enqueued just
 * as the stream goes idle still runs. These tests make the stream go idle as often as possible.
 */
class StreamWakeUpTest {
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static Accelerator accelerator;

  @BeforeAll
  static void start() {
    accelerator = Accelerator.start();
  }

  @AfterAll
  static void stop() {
    accelerator.close();
  }

  @Test
  void streamsWokenAfterEveryKernelRunEachOne() {
    List<Stream> streams = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      streams.add(accelerator.newStream(Device.of(OpenRegProvider.TYPE, i % 2)));
    }
    LongAdder ran = new LongAdder();
    int rounds = 5_000;
    for (int round = 0; round < rounds; round++) {
      for (Stream stream : streams) {
        stream.launch("tick", ran::increment); // each stream wakes, runs it, and goes idle again
      }
      List<Event> done = new ArrayList<>();
      for (Stream stream : streams) {
        done.add(stream.recordEvent()); // enqueued while the stream may be going idle
      }
      for (Event event : done) {
        assertTrue(event.synchronize(WAIT), "a wake-up was lost in round " + round);
      }
    }
    assertEquals((long) rounds * streams.size(), ran.sum());
  }

  @Test
  void concurrentProducersOnAnIdlingStreamLoseNothing() throws Exception {
    Stream stream = accelerator.newStream(Device.parse("openreg:1"));
    LongAdder ran = new LongAdder();
    int producers = 4;
    int each = 20_000;
    List<CompletableFuture<Void>> done = new ArrayList<>();
    for (int p = 0; p < producers; p++) {
      done.add(
          CompletableFuture.runAsync(
              () -> {
                for (int i = 0; i < each; i++) {
                  stream.launch("tick", ran::increment);
                  if (i % 64 == 0) {
                    Thread.yield(); // let the stream drain and go idle between bursts
                  }
                }
              }));
    }
    CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
    Event last = stream.recordEvent();
    assertTrue(last.synchronize(WAIT), "work enqueued by the producers never ran");
    assertEquals((long) producers * each, ran.sum());
    assertTrue(stream.query());
  }
}
