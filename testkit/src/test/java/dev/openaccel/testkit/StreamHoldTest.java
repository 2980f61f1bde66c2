package dev.openaccel.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Stream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A hold keeps a stream's later work waiting until it is released, and then lets it run. */
@OpenAccelTest
class StreamHoldTest {

  @Test
  void workLaunchedAfterAHoldWaitsUntilItIsReleasedAndThenRunsInOrder(Accelerator accelerator) {
    try (Stream stream = accelerator.newStream();
        TraceProbe probe = TraceProbe.attach(accelerator)) {
      List<String> ran = Collections.synchronizedList(new ArrayList<>());
      AtomicInteger counter = new AtomicInteger();
      StreamHold hold = StreamHold.on(stream);
      stream.launch("first", () -> ran.add("first" + counter.incrementAndGet()));
      stream.launch("second", () -> ran.add("second" + counter.incrementAndGet()));

      assertFalse(stream.query());
      assertEquals(3, stream.pendingWork(), "the hold's wait and the two kernels");
      assertEquals(List.of(), probe.kernels());
      assertEquals(0, counter.get());

      hold.release();
      stream.synchronize();
      assertEquals(List.of("first1", "second2"), ran);
      assertEquals(List.of("first", "second"), probe.kernels());
      assertTrue(hold.isReleased());
    }
  }

  @Test
  void workEnqueuedBeforeTheHoldIsNotHeld(Accelerator accelerator) throws Exception {
    try (Stream stream = accelerator.newStream()) {
      var before = stream.submit("before", () -> 1);
      try (StreamHold hold = StreamHold.on(stream)) {
        assertEquals(1, before.toCompletableFuture().get(5, TimeUnit.SECONDS));
        stream.launch("after", () -> {});
        assertFalse(stream.query());
      }
      stream.synchronize();
    }
  }

  @Test
  void releasingTwiceIsHarmless(Accelerator accelerator) {
    try (Stream stream = accelerator.newStream()) {
      StreamHold hold = StreamHold.on(stream);
      AtomicInteger runs = new AtomicInteger();
      stream.launch("once", runs::incrementAndGet);
      hold.release();
      hold.release();
      hold.close();
      stream.synchronize();
      assertEquals(1, runs.get());
      assertTrue(hold.toString().startsWith("StreamHold(released [Stream("), hold.toString());
    }
  }

  @Test
  void holdAllHoldsEveryStreamUntilOneRelease(Accelerator accelerator) {
    try (Stream a = accelerator.newStream();
        Stream b = accelerator.newStream()) {
      AtomicInteger runs = new AtomicInteger();
      StreamHold hold = StreamHold.onAll(a, b);
      a.launch("on a", runs::incrementAndGet);
      b.launch("on b", runs::incrementAndGet);
      assertFalse(a.query());
      assertFalse(b.query());
      assertEquals(List.of(a, b), hold.streams());
      assertEquals(0, runs.get());

      hold.release();
      a.synchronize();
      b.synchronize();
      assertEquals(2, runs.get());
    }
  }

  @Test
  void aHoldOnAClosedStreamFailsAtTheCall(Accelerator accelerator) {
    Stream closed = accelerator.newStream();
    closed.close();
    IllegalStateException refused =
        assertThrows(IllegalStateException.class, () -> StreamHold.on(closed));
    assertTrue(refused.getMessage().contains("accepts no more work"), refused.getMessage());
  }

  @Test
  void holdAllLetsGoOfTheStreamsItHeldWhenAnotherRefuses(Accelerator accelerator) {
    Stream closed = accelerator.newStream();
    closed.close();
    try (Stream open = accelerator.newStream()) {
      assertThrows(IllegalStateException.class, () -> StreamHold.onAll(open, closed));
      AtomicInteger runs = new AtomicInteger();
      open.launch("not held", runs::incrementAndGet);
      open.synchronize();
      assertEquals(1, runs.get());
    }
  }

  @Test
  void misuseIsRejectedNamingIt() {
    assertThrows(NullPointerException.class, () -> StreamHold.on(null));
    assertThrows(NullPointerException.class, () -> StreamHold.onAll((Stream) null));
    IllegalArgumentException none =
        assertThrows(IllegalArgumentException.class, () -> StreamHold.onAll());
    assertEquals("a hold needs at least one stream, got none", none.getMessage());
  }
}
