package dev.openaccel.runtime.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.Capability;
import dev.openaccel.runtime.spi.EngineSpec;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.junit.jupiter.api.Test;

/**
 * A shutdown is not held up for good by a Java kernel blocked in an interruptible call: once the
 * system has been shutting down for {@code openaccel.interrupt-kernels-after}, running kernels are
 * interrupted, the queued ones after them too as they start, and the system terminates. A kernel
 * that ends within that time is left alone.
 */
class ShutdownInterruptTest {
  private static final DeviceType TYPE = DeviceType.of("interrupted");
  private static final Device D0 = Device.of(TYPE, 0);

  private static ActorTestKit kit(String interruptAfter) {
    return ActorTestKit.create(
        ConfigFactory.parseString("openaccel.interrupt-kernels-after = " + interruptAfter)
            .withFallback(ConfigFactory.load()));
  }

  private static ActorEngine engine(ActorTestKit kit) {
    return Engines.start(
        kit.system(),
        EngineSpec.builder(TYPE).computeUnits(2).capabilities(Capability.EVENTS).build());
  }

  /** A kernel that waits for {@code gate}, at most 30 s, and notes how it ended in {@code ends}. */
  private static Runnable blockedOn(
      CountDownLatch gate, CountDownLatch started, List<String> ends, String name) {
    return () -> {
      started.countDown();
      try {
        ends.add(name + (gate.await(30, TimeUnit.SECONDS) ? ": opened" : ": timed out"));
      } catch (InterruptedException e) {
        ends.add(name + ": interrupted");
        throw new IllegalStateException(name + " interrupted", e);
      }
    };
  }

  @Test
  void kernelsBlockedAtShutdownAreInterruptedAndTheSystemTerminates() throws Exception {
    ActorTestKit kit = kit("100ms");
    Stream stream = engine(kit).getNewStream(D0, 0);
    CountDownLatch never = new CountDownLatch(1);
    CountDownLatch started = new CountDownLatch(1);
    List<String> ends = new CopyOnWriteArrayList<>();
    stream.launch("first", blockedOn(never, started, ends, "first"));
    stream.launch("second", blockedOn(never, new CountDownLatch(1), ends, "second"));
    assertTrue(started.await(10, TimeUnit.SECONDS), "the first kernel runs");

    kit.system().terminate();
    try {
      kit.system().getWhenTerminated().toCompletableFuture().get(20, TimeUnit.SECONDS);
    } finally {
      never.countDown();
    }
    assertEquals("first: interrupted", ends.get(0));
    assertTrue(
        ends.size() == 1 || ends.get(1).equals("second: interrupted"),
        "a kernel that started during the shutdown is interrupted too: " + ends);
  }

  @Test
  void aKernelEndingWithinTheGraceIsNotInterrupted() throws Exception {
    ActorTestKit kit = kit("30s");
    ActorEngine engine = engine(kit);
    Stream stream = engine.getNewStream(D0, 0);
    CountDownLatch gate = new CountDownLatch(1);
    CountDownLatch started = new CountDownLatch(1);
    List<String> ends = new CopyOnWriteArrayList<>();
    stream.launch("short", blockedOn(gate, started, ends, "short"));
    assertTrue(started.await(10, TimeUnit.SECONDS), "the kernel runs");

    CompletableFuture<?> terminated = kit.system().getWhenTerminated().toCompletableFuture();
    kit.system().terminate();
    try {
      assertTrue(
          Engines.eventually(() -> engine.devices().shuttingDown()), "the shutdown has begun");
    } finally {
      gate.countDown(); // the kernel ends during the shutdown, long before the grace is out
    }
    terminated.get(20, TimeUnit.SECONDS);
    assertEquals(List.of("short: opened"), ends);
  }

  @Test
  void aGraceUnder10MillisecondsIsRefusedAtStart() {
    // The accelerator's configuration check refuses it as the system starts (its extension).
    IllegalArgumentException refused =
        assertThrows(IllegalArgumentException.class, () -> kit("5ms").shutdownTestKit());
    assertEquals(
        "openaccel.interrupt-kernels-after must be a duration such as 10ms or 2s, at least 10ms,"
            + " got '5ms'",
        refused.getMessage());
  }
}
