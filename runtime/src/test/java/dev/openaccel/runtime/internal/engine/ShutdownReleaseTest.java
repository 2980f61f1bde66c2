package dev.openaccel.runtime.internal.engine;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.Capability;
import dev.openaccel.runtime.spi.DeviceMemory;
import dev.openaccel.runtime.spi.EngineSpec;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.junit.jupiter.api.Test;

/**
 * When the actor system terminates, the engine gives back everything it holds of the device: each
 * region it reserved, cached or lent to a buffer still open, exactly once, and each piece of device
 * work that never reached a queue is discarded, never submitted.
 */
class ShutdownReleaseTest {
  private static final DeviceType TYPE = DeviceType.of("released");
  private static final Device D0 = Device.of(TYPE, 0);

  @Test
  void terminationReleasesEveryRegionOnceAndDiscardsWorkThatNeverRan() {
    ActorTestKit kit = ActorTestKit.create();
    QueueDevice device = new QueueDevice();
    QueueMemory memory = new QueueMemory();
    ActorEngine engine =
        Engines.start(
            kit.system(),
            EngineSpec.builder(TYPE)
                .capabilities(Capability.EVENTS, Capability.DEVICE_MEMORY)
                .executor(device)
                .memory(memory)
                .build());
    Stream stream = engine.getNewStream(D0, 0);
    DeviceBuffer open = engine.allocate(stream, 4096);
    engine.allocate(stream, 1 << 20).close(); // cached
    DeviceBuffer heldByOthers = engine.allocate(stream, 8192);
    Stream other = engine.getNewStream(D0, 0);
    heldByOthers.recordStream(other);

    stream.waitFor(new CompletableFuture<>()); // parks the stream for good
    AtomicInteger ran = new AtomicInteger();
    engine.enqueue(stream, "never", memory.work(ran::incrementAndGet));
    stream.copyToDevice(ByteBuffer.allocate(4096), open); // a heap copy
    stream.copyToDevice(ByteBuffer.allocateDirect(4096), open);
    other.waitFor(new CompletableFuture<>());
    heldByOthers.close(); // waits for the work enqueued on other, which never runs

    kit.shutdownTestKit();
    assertTrue(
        AfterTermination.get(kit.system()).await(Duration.ofSeconds(10)),
        "the engine's releases ran after termination");

    assertEquals(0, ran.get(), "work behind the park never ran");
    assertEquals(3, memory.discarded.get(), "the launch and both copies were discarded");
    assertEquals(3, memory.reserved.size());
    assertEquals(
        List.copyOf(memory.reserved).stream().sorted(BY_SIZE).toList(),
        List.copyOf(memory.released).stream().sorted(BY_SIZE).toList(),
        "each region given back once");
    open.close(); // given back at termination: nothing twice
    assertEquals(3, memory.released.size());
    assertFalse(device.submitted.stream().anyMatch(w -> w instanceof QueueDevice.Work));
  }

  @Test
  void aSyncOrRecordBehindDeviceWorkNeverSeenToEndFailsAtTerminationInsteadOfPassing()
      throws Exception {
    ActorTestKit kit = ActorTestKit.create();
    QueueDevice device = new QueueDevice();
    ActorEngine engine =
        Engines.start(
            kit.system(),
            EngineSpec.builder(TYPE).capabilities(Capability.EVENTS).executor(device).build());
    Stream stream = engine.getNewStream(D0, 0);
    CountDownLatch running = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    engine.enqueue(
        stream,
        "in flight",
        new QueueDevice.Work(
            () -> {
              running.countDown();
              Engines.awaiting(release).run(); // the device is still on it at termination
            }));
    Event recorded = Engines.newEvent(engine, EventOptions.defaults());
    recorded.record(stream);
    CompletableFuture<Void> synced = stream.synchronizeAsync().toCompletableFuture();
    assertTrue(running.await(10, TimeUnit.SECONDS));

    kit.shutdownTestKit();
    ExecutionException sync = assertThrows(ExecutionException.class, () -> synced.get(10, SECONDS));
    assertTrue(
        sync.getCause().getMessage().contains("accepts no more work"), sync.getCause().toString());
    ExecutionException record =
        assertThrows(
            ExecutionException.class,
            () -> recorded.completion().toCompletableFuture().get(10, SECONDS));
    assertTrue(record.getCause() instanceof DeviceExecutionException, record.toString());
    release.countDown();
  }

  private static final java.util.Comparator<DeviceMemory.Region> BY_SIZE =
      java.util.Comparator.comparingLong(DeviceMemory.Region::size);
}
