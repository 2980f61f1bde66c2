package dev.openaccel.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.Capability;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Conformance of {@link Capability#STREAM_POOL}: declared, {@code streamFromPool} hands out a fixed
 * pool of streams per device and priority class round-robin (torch semantics); undeclared, it is
 * reported as unsupported.
 */
public abstract class StreamPoolTck extends BackendTck {
  /** More calls than any sensible pool has streams, so that the pool must wrap around. */
  private static final int CALLS = 2_050;

  @Test
  void streamFromPoolIsUnsupportedWhenUndeclared() {
    assumeUndeclared(Capability.STREAM_POOL);
    assertUnsupported(() -> accelerator().streamFromPool(device(0), false));
    assertUnsupported(() -> accelerator().streamFromPool(device(0), true));
    assertUnsupported(() -> backend().getStreamFromGlobalPool(device(0), false));
  }

  @Test
  void poolStreamsAreHandedOutRoundRobin() {
    assumeDeclared(Capability.STREAM_POOL);
    for (boolean high : new boolean[] {false, true}) {
      List<Stream> handedOut = new ArrayList<>();
      for (int i = 0; i < CALLS; i++) {
        handedOut.add(accelerator().streamFromPool(device(0), high));
      }
      int period = handedOut.subList(1, CALLS).indexOf(handedOut.get(0)) + 1;
      assertTrue(period > 0, about("the pool never handed out the same stream twice"));
      assertEquals(
          period,
          new HashSet<>(handedOut.subList(0, period)).size(),
          about("a pool period repeats a stream"));
      for (int i = 0; i < CALLS; i++) {
        assertEquals(handedOut.get(i % period), handedOut.get(i), about("round-robin order"));
      }
    }
  }

  @Test
  void poolStreamsAreNeitherDefaultNorExclusiveStreams() {
    assumeDeclared(Capability.STREAM_POOL);
    for (int d = 0; d < deviceCount(); d++) {
      Stream fresh = newStream(d);
      for (int i = 0; i < 4; i++) {
        for (boolean high : new boolean[] {false, true}) {
          Stream pooled = accelerator().streamFromPool(device(d), high);
          assertEquals(device(d), pooled.device());
          assertNotEquals(0, pooled.id(), about("the default stream is not pooled"));
          assertNotEquals(fresh, pooled);
        }
      }
    }
  }

  @Test
  void lowAndHighPriorityPoolsAreSeparate() {
    assumeDeclared(Capability.STREAM_POOL);
    Set<Stream> low = new HashSet<>();
    Set<Stream> high = new HashSet<>();
    for (int i = 0; i < 64; i++) {
      low.add(accelerator().streamFromPool(device(0), false));
      high.add(accelerator().streamFromPool(device(0), true));
    }
    low.retainAll(high);
    assertTrue(low.isEmpty(), about("streams in both priority pools: " + low));
  }

  @Test
  void poolStreamsRunTheirWorkInOrder() {
    assumeDeclared(Capability.STREAM_POOL);
    Stream pooled = accelerator().streamFromPool(device(0), false);
    Stream again = accelerator().stream(device(0), pooled.id());
    assertEquals(pooled, again);
    AtomicInteger next = new AtomicInteger();
    AtomicInteger outOfOrder = new AtomicInteger();
    for (int i = 0; i < 100; i++) {
      int expected = i;
      (i % 2 == 0 ? pooled : again)
          .launch(
              "ordered",
              () -> {
                if (next.getAndIncrement() != expected) {
                  outOfOrder.incrementAndGet();
                }
              });
    }
    pooled.synchronize();
    assertEquals(100, next.get());
    assertEquals(0, outOfOrder.get());
  }

  @Test
  void streamFromPoolOnAnOutOfRangeDeviceIsRejectedOrUnsupported() {
    if (declares(Capability.STREAM_POOL)) {
      assertThrowsWith(
          IllegalArgumentException.class,
          "device index is out of range",
          () -> accelerator().streamFromPool(device(deviceCount()), false));
    } else {
      assertUnsupported(() -> accelerator().streamFromPool(device(deviceCount()), false));
    }
  }
}
