package dev.openaccel.runtime.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.DeviceWork;
import dev.openaccel.runtime.spi.EngineSpec;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The stream actor's protocol, driven by hand: the first enqueue asks the device actor (a probe
 * here) for a stream actor; the actor drains the queue in order; a parked stream whose actor stops
 * settles its queued work with a failure instead of hanging; device work on a stream whose engine
 * has no device queue fails in its place and stops nothing else.
 */
class StreamActorTest {
  private static final ActorTestKit KIT = ActorTestKit.create();
  private static final DeviceType TYPE = DeviceType.of("handdriven");
  private static final ActorEngine ENGINE =
      Engines.start(KIT.system(), EngineSpec.builder(TYPE).build());

  @AfterAll
  static void stop() {
    KIT.shutdownTestKit();
  }

  private static StreamQueue handle(TestProbe<DeviceActor.Command> device, long id) {
    return new StreamQueue(
        ENGINE,
        device.getRef(),
        Device.of(TYPE, 0),
        id,
        0,
        8,
        true,
        new QueueBound(0, Duration.ofSeconds(1)));
  }

  @Test
  void theFirstEnqueueAsksTheDeviceForAnActorWhichThenRunsTheQueueInOrder() throws Exception {
    TestProbe<DeviceActor.Command> device = KIT.createTestProbe();
    StreamQueue stream = handle(device, 100);
    List<Integer> seen = new CopyOnWriteArrayList<>();
    for (int i = 0; i < 20; i++) {
      int n = i;
      stream.launch("k" + i, () -> seen.add(n));
    }
    DeviceActor.SpawnStream spawn = device.expectMessageClass(DeviceActor.SpawnStream.class);
    assertSame(stream, spawn.stream());
    device.expectNoMessage(Duration.ofMillis(50)); // one request, however many enqueues
    KIT.spawn(StreamActor.create(stream), "stream-100");
    stream.synchronizeAsync().toCompletableFuture().get(10, TimeUnit.SECONDS);
    assertEquals(20, seen.size());
    for (int i = 0; i < 20; i++) {
      assertEquals(i, seen.get(i));
    }
    assertTrue(stream.query());
  }

  @Test
  void aParkedStreamWhoseActorStopsFailsItsQueuedWork() throws Exception {
    TestProbe<DeviceActor.Command> device = KIT.createTestProbe();
    StreamQueue stream = handle(device, 101);
    stream.waitFor(new CompletableFuture<Void>()); // never completes
    CompletionStage<Integer> queued = stream.submit("after the wait", () -> 1);
    device.expectMessageClass(DeviceActor.SpawnStream.class);
    ActorRef<StreamMessage> actor = KIT.spawn(StreamActor.create(stream), "stream-101");
    KIT.stop(actor);
    ExecutionException failed =
        org.junit.jupiter.api.Assertions.assertThrows(
            ExecutionException.class, () -> queued.toCompletableFuture().get(10, TimeUnit.SECONDS));
    assertTrue(failed.getCause() instanceof DeviceExecutionException);
    assertTrue(failed.getCause().getMessage().contains("accepts no more work"));
    assertTrue(stream.query(), "nothing is left pending on a stopped stream");
  }

  @Test
  void deviceWorkOnAStreamWithoutADeviceQueueFailsInOrderAndLaterWorkStillRuns() throws Exception {
    Stream stream = ENGINE.getNewStream(Device.of(TYPE, 0), 0);
    List<String> seen = new CopyOnWriteArrayList<>();
    stream.launch("before", () -> seen.add("before"));
    ENGINE.enqueue(stream, "a device step", new DeviceWork() {});
    stream.launch("after", () -> seen.add("after"));
    ExecutionException failed =
        org.junit.jupiter.api.Assertions.assertThrows(
            ExecutionException.class,
            () -> stream.synchronizeAsync().toCompletableFuture().get(10, TimeUnit.SECONDS));
    assertTrue(failed.getCause() instanceof DeviceExecutionException);
    assertTrue(
        failed.getCause().getMessage().contains("device work 'a device step' cannot run on"),
        failed.getCause().getMessage());
    assertTrue(failed.getCause().getMessage().contains("gives it no device queue"));
    assertEquals(List.of("before", "after"), seen); // in order, and the failure stopped nothing
    stream.synchronizeAsync().toCompletableFuture().get(10, TimeUnit.SECONDS); // reported once
    assertTrue(stream.query());
  }
}
