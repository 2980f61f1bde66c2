package dev.openaccel.openreg.stream;

import static org.junit.jupiter.api.Assertions.*;

import dev.openaccel.openreg.testing.SharedAcceleratorTest;
import dev.openaccel.runtime.*;
import java.util.*;
import java.util.concurrent.*;
import org.junit.jupiter.api.*;

class SmokeTest extends SharedAcceleratorTest {
  @Test
  void basics() throws Exception {
    assertEquals(2, acc.deviceCount());
    Device d0 = Device.parse("openreg:0");
    Stream s = acc.newStream(d0);
    List<Integer> order = Collections.synchronizedList(new ArrayList<>());
    for (int i = 0; i < 1000; i++) {
      int k = i;
      s.launch("k" + i, () -> order.add(k));
    }
    Event e = acc.newEvent(EventOptions.timing());
    e.record(s);
    e.synchronize();
    assertEquals(1000, order.size());
    for (int i = 0; i < 1000; i++) assertEquals(i, order.get(i));
    assertTrue(s.query());
    Stream s2 = acc.newStream(d0);
    CountDownLatch latch = new CountDownLatch(1);
    s.launch(
        "wait",
        () -> {
          try {
            latch.await(5, TimeUnit.SECONDS);
          } catch (InterruptedException x) {
          }
        });
    Event e2 = s.recordEvent();
    s2.waitEvent(e2);
    CompletionStage<String> r = s2.submit("after", () -> "done");
    assertFalse(e2.query());
    assertFalse(s2.query());
    latch.countDown();
    assertEquals("done", r.toCompletableFuture().get(5, TimeUnit.SECONDS));
    s.launch(
        "boom",
        () -> {
          throw new RuntimeException("bad");
        });
    assertThrows(DeviceExecutionException.class, s::synchronize);
    s.synchronize();
    acc.synchronize(d0);
    System.out.println(s + " " + e.id());
  }
}
