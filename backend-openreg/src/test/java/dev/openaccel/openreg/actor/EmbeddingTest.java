package dev.openaccel.openreg.actor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.Stream;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.Test;

/** OpenAccel inside a user's own actor system: its actors, its extension, and its shutdown. */
class EmbeddingTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  private static ActorSystem<Void> userSystem(String name) {
    return ActorSystem.create(
        Behaviors.setup(context -> Behaviors.empty()),
        name,
        ConfigFactory.parseString("openaccel.openreg.device-count = 3")
            .withFallback(ConfigFactory.load("application-test")));
  }

  @Test
  void theAcceleratorStartsWithTheUsersSystemAndLivesUnderSystemActors() throws Exception {
    ActorSystem<Void> system = userSystem("embedding-user");
    try {
      assertTrue(
          system.hasExtension(Accelerator.Id.getInstance()), "loaded as a library extension");
      Accelerator accelerator = Accelerator.get(system);
      assertSame(accelerator, Accelerator.get(system));
      assertEquals(3, accelerator.deviceCount(), "the user's configuration applies");
      for (int i = 0; i < 3; i++) {
        system
            .classicSystem()
            .actorSelection("/system/openaccel-openreg-device-" + i)
            .resolveOne(WAIT)
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS);
      }
      accelerator.close(); // not ours to stop: a no-op
      Stream stream = accelerator.newStream(Device.parse("openreg:2"));
      assertEquals("ok", stream.submit("k", () -> "ok").toCompletableFuture().get(10, SECONDS));
    } finally {
      system.terminate();
      system.getWhenTerminated().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void terminationFailsPendingWaitersInsteadOfHanging() throws Exception {
    ActorSystem<Void> system = userSystem("embedding-shutdown");
    Accelerator accelerator = Accelerator.get(system);
    Device device = Device.parse("openreg:0");
    Stream gated = accelerator.newStream(device);
    Stream parked = accelerator.newStream(device);
    CountDownLatch gate = new CountDownLatch(1);
    gated.launch("held", () -> awaitQuietly(gate));
    Event opened = gated.recordEvent();
    parked.waitEvent(opened); // parked: its actor is idle, waiting for the gated stream
    Event pending = parked.recordEvent();
    CompletableFuture<Void> completion = pending.completion().toCompletableFuture();
    CompletableFuture<Void> streamSync = parked.synchronizeAsync().toCompletableFuture();

    system.terminate();
    ExecutionException failed =
        assertThrows(ExecutionException.class, () -> completion.get(10, TimeUnit.SECONDS));
    DeviceExecutionException cause =
        assertInstanceOf(DeviceExecutionException.class, failed.getCause());
    assertTrue(cause.getMessage().contains("accepts no more work"), cause.getMessage());
    assertThrows(ExecutionException.class, () -> streamSync.get(10, TimeUnit.SECONDS));
    gate.countDown();
    system.getWhenTerminated().toCompletableFuture().get(10, TimeUnit.SECONDS);

    IllegalStateException rejected =
        assertThrows(IllegalStateException.class, () -> parked.launch("late", () -> {}));
    assertTrue(rejected.getMessage().contains("accepts no more work"), rejected.getMessage());
  }

  private static final TimeUnit SECONDS = TimeUnit.SECONDS;

  @Test
  void afterTerminationDeviceSynchronizeAndNewStreamsFailInsteadOfHanging() throws Exception {
    ActorSystem<Void> system = userSystem("embedding-after-shutdown");
    Accelerator accelerator = Accelerator.get(system);
    Device device = Device.parse("openreg:1");
    Stream parked = accelerator.newStream(device);
    Stream gated = accelerator.newStream(device);
    CountDownLatch gate = new CountDownLatch(1);
    gated.launch("held", () -> awaitQuietly(gate));
    parked.waitEvent(gated.recordEvent());
    parked.launch("never", () -> {});
    system.terminate();
    gate.countDown();
    system.getWhenTerminated().toCompletableFuture().get(10, TimeUnit.SECONDS);

    CompletableFuture<Void> sync =
        CompletableFuture.runAsync(() -> accelerator.synchronize(device));
    ExecutionException failed =
        assertThrows(ExecutionException.class, () -> sync.get(10, TimeUnit.SECONDS));
    assertInstanceOf(DeviceExecutionException.class, failed.getCause());
    assertTrue(parked.query(), "a stream parked at shutdown has nothing left pending");
    IllegalStateException late =
        assertThrows(IllegalStateException.class, () -> accelerator.newStream(device));
    assertTrue(late.getMessage().contains("accepts no more"), late.getMessage());
  }

  private static void awaitQuietly(CountDownLatch gate) {
    try {
      gate.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
