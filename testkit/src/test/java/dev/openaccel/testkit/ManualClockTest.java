package dev.openaccel.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.Stream;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The manual clock drives elapsed times and timeouts; nothing here sleeps. */
@OpenAccelTest
class ManualClockTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  @Test
  void kernelsThatTakeTimeGiveExactElapsedTimes(Accelerator accelerator) {
    ManualClock clock = ManualClock.on(accelerator);
    try (Stream stream = accelerator.newStream();
        Event start = accelerator.newEvent(EventOptions.timing());
        Event middle = accelerator.newEvent(EventOptions.timing());
        Event end = accelerator.newEvent(EventOptions.timing())) {
      start.record(stream);
      stream.launch("five", clock.taking(Duration.ofMillis(5)));
      middle.record(stream);
      stream.launch("plain", () -> {});
      stream.launch("seven", clock.taking(Duration.ofMillis(7)));
      end.record(stream);
      end.synchronize();

      assertEquals(5.0, start.elapsedTime(middle));
      assertEquals(Duration.ofMillis(12), start.elapsed(end));
      assertEquals(Duration.ofMillis(12), clock.now());
    }
  }

  @Test
  void aTimedSynchronizeGivesUpOnlyWhenTheClockPassesItsTimeout(Accelerator accelerator)
      throws Exception {
    ManualClock clock = ManualClock.on(accelerator);
    try (Stream stream = accelerator.newStream();
        Event event = accelerator.newEvent();
        StreamHold hold = StreamHold.on(stream)) {
      event.record(stream);
      CompletableFuture<Boolean> synced =
          CompletableFuture.supplyAsync(() -> event.synchronize(Duration.ofSeconds(30)));
      clock.awaitTimeouts(1, WAIT);
      clock.advance(Duration.ofSeconds(29));
      assertFalse(synced.isDone(), "29 of 30 seconds passed");
      clock.advance(Duration.ofSeconds(1));
      assertFalse(synced.get(WAIT.toSeconds(), TimeUnit.SECONDS), "timed out");
      hold.release();
      assertTrue(event.synchronize(Duration.ofSeconds(30)));
    }
  }

  @Test
  void aTimedSynchronizeThatCompletesFirstReturnsTrue(Accelerator accelerator) throws Exception {
    ManualClock clock = ManualClock.on(accelerator);
    try (Stream stream = accelerator.newStream();
        Event event = accelerator.newEvent();
        StreamHold hold = StreamHold.on(stream)) {
      event.record(stream);
      CompletableFuture<Boolean> synced =
          CompletableFuture.supplyAsync(() -> event.synchronize(Duration.ofSeconds(1)));
      clock.awaitTimeouts(1, WAIT);
      hold.release();
      assertTrue(synced.get(WAIT.toSeconds(), TimeUnit.SECONDS));
    }
  }

  @Test
  void theClockIsOnePerAcceleratorAndOnlyMovesForward(Accelerator accelerator) {
    ManualClock clock = ManualClock.on(accelerator);
    assertSame(clock, ManualClock.on(accelerator));
    assertEquals(Duration.ZERO, clock.now());
    assertEquals(
        "a clock only moves forward, got advance(PT-1S)",
        assertThrows(IllegalArgumentException.class, () -> clock.advance(Duration.ofSeconds(-1)))
            .getMessage());
    AssertionError none =
        assertThrows(AssertionError.class, () -> clock.awaitTimeouts(1, Duration.ofMillis(20)));
    assertEquals(
        "1 timeouts expected on the manual clock within PT0.02S, got 0", none.getMessage());
  }
}
