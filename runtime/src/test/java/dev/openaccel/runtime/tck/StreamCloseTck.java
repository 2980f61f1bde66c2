package dev.openaccel.runtime.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.Stream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * Conformance of {@link Stream#close()}: a closed stream takes no more work, what was queued still
 * runs in order, syncs and records taken before still complete, the stream's resources are then
 * released (its id is no longer known), the default and pool streams cannot be closed, and close is
 * idempotent.
 */
public abstract class StreamCloseTck extends BackendTck {
  private static final String REFUSED = "accepts no more work";

  @Test
  void closeLetsQueuedWorkRunInOrderAndRefusesLaterWork() throws Exception {
    Stream stream = newStream(0);
    CountDownLatch gate = gate();
    hold(stream, gate);
    List<Integer> order = Collections.synchronizedList(new ArrayList<>());
    for (int i = 0; i < 50; i++) {
      int k = i;
      stream.launch("queued " + i, () -> order.add(k));
    }
    CompletableFuture<Void> sync = stream.synchronizeAsync().toCompletableFuture();
    Event queued = stream.recordEvent();
    stream.close();
    assertThrowsWith(IllegalStateException.class, REFUSED, () -> stream.launch("late", () -> {}));
    assertThrowsWith(IllegalStateException.class, REFUSED, () -> stream.submit("late", () -> 1));
    gate.countDown();
    await(sync);
    assertEquals(50, order.size(), "every kernel queued before close ran");
    for (int i = 0; i < 50; i++) {
      assertEquals(i, order.get(i), "in enqueue order");
    }
    await(queued.completion());
    assertTrue(queued.query());
  }

  @Test
  void aClosedStreamIsReleasedOnceItsWorkRanAndItsIdIsNotReused() throws Exception {
    Stream stream = newStream(0);
    stream.launch("last", () -> {});
    stream.close();
    assertTrue(
        eventually(() -> !known(stream)),
        "the closed stream is released once its work ran: its id is no longer known");
    Stream next = newStream(0);
    assertTrue(next.id() != stream.id(), "a new stream gets a new id");
    next.launch("runs", () -> {});
    await(next.synchronizeAsync());
  }

  @Test
  void closingAStreamThatNeverHadWorkReleasesItAtOnce() {
    Stream stream = newStream(0);
    stream.close();
    assertTrue(!known(stream), "released at once: no actor ever ran it");
    assertThrowsWith(IllegalStateException.class, REFUSED, () -> stream.launch("late", () -> {}));
  }

  @Test
  void closeIsIdempotent() throws Exception {
    Stream stream = newStream(0);
    stream.launch("k", () -> {});
    stream.close();
    stream.close();
    assertTrue(eventually(() -> !known(stream)), "released");
    stream.close();
  }

  @Test
  void theDefaultStreamAndPoolStreamsCannotBeClosed() {
    Stream defaults = accelerator().defaultStream(device(0));
    assertThrowsWith(IllegalStateException.class, "not closed", defaults::close);
    defaults.launch("still works", () -> {});
    defaults.synchronize();
  }

  @Test
  void aStreamPoolStreamCannotBeClosed() {
    assumeDeclared(dev.openaccel.runtime.spi.Capability.STREAM_POOL);
    Stream pooled = accelerator().streamFromPool(device(0), false);
    assertThrowsWith(IllegalStateException.class, "not closed", pooled::close);
  }

  private boolean known(Stream stream) {
    try {
      accelerator().stream(stream.device(), stream.id());
      return true;
    } catch (IllegalArgumentException unknown) {
      return false;
    }
  }

  /** Whether {@code condition} holds within the suite's bound, checked between yields. */
  private static boolean eventually(java.util.function.BooleanSupplier condition) {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      Thread.yield();
    }
    return true;
  }
}
