package dev.openaccel.runtime.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.Capability;
import dev.openaccel.runtime.spi.EngineSpec;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * A copy from a heap buffer, which the backend stages as it is submitted ({@link QueueMemory}), is
 * submitted at once behind device kernels (they write no heap memory), and only after earlier work
 * that may still fill heap memory has ended: a copy into a heap buffer on its stream, or a wait
 * handed to the device for another stream's record.
 */
class HeapCopyOrderTest {
  private static final ActorTestKit KIT = ActorTestKit.create();
  private static final DeviceType TYPE = DeviceType.of("heapcopies");
  private static final QueueDevice DEVICE = new QueueDevice();
  private static final QueueMemory MEMORY = new QueueMemory();
  private static final ActorEngine ENGINE =
      Engines.start(
          KIT.system(),
          EngineSpec.builder(TYPE)
              .computeUnits(2)
              .capabilities(Capability.EVENTS, Capability.DEVICE_MEMORY)
              .executor(DEVICE)
              .memory(MEMORY)
              .build());
  private static final Device D0 = Device.of(TYPE, 0);
  private static final int SIZE = 64;

  @AfterAll
  static void stop() {
    KIT.shutdownTestKit();
  }

  private static ByteBuffer pattern(int seed) {
    ByteBuffer bytes = ByteBuffer.allocateDirect(SIZE);
    for (int i = 0; i < SIZE; i++) {
      bytes.put(i, (byte) (seed + i));
    }
    return bytes;
  }

  /** {@code buffer}'s bytes, read back after the stream's work. */
  private static ByteBuffer contentOf(Stream stream, DeviceBuffer buffer) {
    ByteBuffer back = ByteBuffer.allocateDirect(SIZE);
    stream.copyToHost(buffer, back);
    stream.synchronize();
    return back;
  }

  /** A device kernel that holds {@code stream}'s queue until the returned gate opens. */
  private static CountDownLatch holdQueue(Stream stream) {
    CountDownLatch gate = new CountDownLatch(1);
    ENGINE.enqueue(stream, "gate", new QueueDevice.Work(Engines.awaiting(gate)));
    return gate;
  }

  /**
   * Runs {@code enqueue} in a Java kernel on {@code stream}, so that the stream takes the items it
   * enqueues in the same turn, and waits until that turn has ended (the stream flushed its queue):
   * by then the stream has submitted each of those items or parked on one.
   */
  private static void enqueueInOneTurn(Stream stream, Runnable enqueue) {
    stream.synchronize(); // nothing in flight: the Java kernel runs as soon as it is reached
    CompletableFuture<Integer> flushed = new CompletableFuture<>();
    stream.launch(
        "enqueue",
        () -> {
          flushed.complete(DEVICE.flushes(stream)); // this turn flushes once, when it ends
          enqueue.run();
        });
    int before = flushed.orTimeout(10, TimeUnit.SECONDS).join();
    assertTrue(
        Engines.eventually(() -> DEVICE.flushes(stream) > before), "the stream's turn ended");
  }

  @Test
  void aHeapCopyBehindRunningDeviceKernelsIsSubmittedAtOnce() {
    Stream stream = ENGINE.getNewStream(D0, 0);
    DeviceBuffer buffer = ENGINE.allocate(stream, SIZE);
    CountDownLatch gate = holdQueue(stream);
    ByteBuffer source = ByteBuffer.allocate(SIZE).put(0, pattern(3), 0, SIZE);
    stream.copyToDevice(source, buffer);
    assertTrue(
        Engines.eventually(() -> MEMORY.staged.contains(source)),
        "the heap source was staged while the kernel before it still ran");
    gate.countDown();
    assertEquals(pattern(3), contentOf(stream, buffer));
  }

  @Test
  void aHeapCopyWaitsForACopyIntoTheHeapBeforeIt() {
    Stream stream = ENGINE.getNewStream(D0, 0);
    DeviceBuffer filled = ENGINE.allocate(stream, SIZE);
    DeviceBuffer target = ENGINE.allocate(stream, SIZE);
    stream.copyToDevice(pattern(7), filled);
    ByteBuffer heap = ByteBuffer.allocate(SIZE);
    CountDownLatch gate = new CountDownLatch(1);
    enqueueInOneTurn(
        stream,
        () -> {
          ENGINE.enqueue(stream, "gate", new QueueDevice.Work(Engines.awaiting(gate)));
          stream.copyToHost(filled, heap); // fills heap when it ends
          stream.copyToDevice(heap, target); // must read it after that
        });
    assertEquals(List.of(), heapSourcesStaged(heap), "staged while the heap was still filling");
    gate.countDown();
    assertEquals(pattern(7), contentOf(stream, target));
  }

  @Test
  void aHeapCopyWaitsForADeviceWaitOnAStreamThatFillsTheHeap() {
    Stream producer = ENGINE.getNewStream(D0, 0);
    Stream consumer = ENGINE.getNewStream(D0, 0);
    DeviceBuffer filled = ENGINE.allocate(producer, SIZE);
    DeviceBuffer target = ENGINE.allocate(consumer, SIZE);
    producer.copyToDevice(pattern(11), filled);
    Event filledHeap = Engines.newEvent(ENGINE, EventOptions.defaults());
    ByteBuffer heap = ByteBuffer.allocate(SIZE);
    int waits = DEVICE.deviceWaits.get();
    CountDownLatch gate = new CountDownLatch(1);
    enqueueInOneTurn( // once it returns, the record's marker is on the producer's queue
        producer,
        () -> {
          ENGINE.enqueue(producer, "gate", new QueueDevice.Work(Engines.awaiting(gate)));
          producer.copyToHost(filled, heap);
          filledHeap.record(producer);
        });
    enqueueInOneTurn(
        consumer,
        () -> {
          consumer.waitEvent(filledHeap);
          consumer.copyToDevice(heap, target);
        });
    assertEquals(waits + 1, DEVICE.deviceWaits.get(), "the consumer waits on the device");
    assertEquals(List.of(), heapSourcesStaged(heap), "staged while the heap was still filling");
    gate.countDown();
    assertEquals(pattern(11), contentOf(consumer, target));
    filledHeap.close();
  }

  private static List<ByteBuffer> heapSourcesStaged(ByteBuffer heap) {
    return MEMORY.staged.stream().filter(b -> b == heap).toList();
  }
}
