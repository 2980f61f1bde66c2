package dev.openaccel.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.PriorityRange;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.Capability;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Conformance of {@link Capability#STREAM_PRIORITIES}. Priorities are clamped into the backend's
 * range, never rejected (torch semantics), so the undeclared branch is a range of one priority that
 * every request collapses to, rather than an {@link UnsupportedOperationException}.
 */
public abstract class PriorityTck extends BackendTck {

  private PriorityRange range() {
    return accelerator().priorityRange(deviceType());
  }

  private int lowest() {
    return Math.min(range().least(), range().greatest());
  }

  private int highest() {
    return Math.max(range().least(), range().greatest());
  }

  private int clamp(int priority) {
    return Math.max(lowest(), Math.min(highest(), priority));
  }

  @Test
  void priorityRangeIsTheSameThroughTheSpi() {
    assertEquals(backend().priorityRange(), range());
  }

  @Test
  void requestedPrioritiesAreClampedIntoTheRange() {
    int[] requests = {
      Integer.MIN_VALUE,
      lowest() - 1,
      range().least(),
      range().greatest(),
      highest() + 1,
      0,
      Integer.MAX_VALUE
    };
    for (int requested : requests) {
      Stream stream = accelerator().newStream(device(0), requested);
      assertEquals(clamp(requested), stream.priority(), about("priority " + requested));
    }
  }

  @Test
  void newStreamWithoutPriorityAsksForPriorityZero() {
    assertEquals(clamp(0), newStream(0).priority());
  }

  @Test
  void defaultStreamHasTheLeastPriority() {
    for (int i = 0; i < deviceCount(); i++) {
      assertEquals(range().least(), accelerator().defaultStream(device(i)).priority());
    }
  }

  @Test
  void undeclaredPrioritiesCollapseToOnePriority() {
    assumeUndeclared(Capability.STREAM_PRIORITIES);
    assertEquals(range().least(), range().greatest(), about("a range without STREAM_PRIORITIES"));
    assertEquals(range().least(), accelerator().newStream(device(0), 1).priority());
    assertEquals(range().least(), accelerator().newStream(device(0), -1).priority());
  }

  @Test
  void declaredPrioritiesFormARangeOfSeveralPriorities() {
    assumeDeclared(Capability.STREAM_PRIORITIES);
    assertNotEquals(range().least(), range().greatest(), about("STREAM_PRIORITIES is declared"));
    assertEquals(range().least(), accelerator().newStream(device(0), range().least()).priority());
    assertEquals(
        range().greatest(), accelerator().newStream(device(0), range().greatest()).priority());
  }

  @Test
  void poolStreamsCarryTheGreatestOrLeastPriority() {
    assumeDeclared(Capability.STREAM_PRIORITIES);
    assumeDeclared(Capability.STREAM_POOL);
    assertEquals(range().greatest(), accelerator().streamFromPool(device(0), true).priority());
    assertEquals(range().least(), accelerator().streamFromPool(device(0), false).priority());
  }

  @Test
  void streamsOfEveryPriorityRunTheirWorkInOrder() throws Exception {
    Stream low = accelerator().newStream(device(0), range().least());
    Stream high = accelerator().newStream(device(0), range().greatest());
    AtomicInteger lowNext = new AtomicInteger();
    AtomicInteger highNext = new AtomicInteger();
    AtomicInteger outOfOrder = new AtomicInteger();
    for (int i = 0; i < 200; i++) {
      int expected = i;
      low.launch("low", () -> check(lowNext, expected, outOfOrder));
      high.launch("high", () -> check(highNext, expected, outOfOrder));
    }
    await(
        CompletableFuture.allOf(
            low.synchronizeAsync().toCompletableFuture(),
            high.synchronizeAsync().toCompletableFuture()));
    assertEquals(200, lowNext.get());
    assertEquals(200, highNext.get());
    assertEquals(0, outOfOrder.get());
    assertTrue(low.query() && high.query());
  }

  private static void check(AtomicInteger next, int expected, AtomicInteger outOfOrder) {
    if (next.getAndIncrement() != expected) {
      outOfOrder.incrementAndGet();
    }
  }
}
