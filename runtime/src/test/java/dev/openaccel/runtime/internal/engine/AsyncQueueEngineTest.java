package dev.openaccel.runtime.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.Capability;
import dev.openaccel.runtime.spi.EngineSpec;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The engine over an asynchronous device queue ({@link QueueDevice}), written against the SPI only:
 * device work is submitted in stream order and ends later on another thread; Java kernels wait for
 * the device work before them; a wait on a marker of the same executor happens on the device;
 * failures surface at the next covering sync and later work still runs.
 */
class AsyncQueueEngineTest {
  private static final ActorTestKit KIT = ActorTestKit.create();
  private static final DeviceType TYPE = DeviceType.of("queued");
  private static final QueueDevice DEVICE = new QueueDevice();
  private static final ActorEngine ENGINE =
      Engines.start(
          KIT.system(),
          EngineSpec.builder(TYPE)
              .computeUnits(2)
              .capabilities(Capability.EVENTS, Capability.TIMING)
              .executor(DEVICE)
              .build());
  private static final Device D0 = Device.of(TYPE, 0);

  @AfterAll
  static void stop() {
    KIT.shutdownTestKit();
  }

  private static Stream newStream() {
    return ENGINE.getNewStream(D0, 0);
  }

  private static void device(Stream stream, String name, Runnable body) {
    ENGINE.enqueue(stream, name, new QueueDevice.Work(body));
  }

  @Test
  void deviceWorkRunsInStreamOrder() {
    Stream stream = newStream();
    List<Integer> seen = new CopyOnWriteArrayList<>();
    for (int i = 0; i < 200; i++) {
      int n = i;
      device(stream, "append", () -> seen.add(n));
    }
    stream.synchronize();
    assertTrue(stream.query());
    assertEquals(200, seen.size());
    for (int i = 0; i < 200; i++) {
      assertEquals(i, seen.get(i));
    }
  }

  @Test
  void aJavaKernelRunsOnlyAfterTheDeviceWorkBeforeItEnded() {
    Stream stream = newStream();
    List<String> order = new CopyOnWriteArrayList<>();
    CountDownLatch gate = new CountDownLatch(1);
    device(
        stream,
        "gated",
        () -> {
          Engines.awaiting(gate).run();
          order.add("device");
        });
    stream.launch("java", () -> order.add("java"));
    assertFalse(stream.query(), "the gated device work is still running");
    assertEquals(List.of(), order);
    gate.countDown();
    stream.synchronize();
    assertEquals(List.of("device", "java"), order);
  }

  /**
   * Records {@code ready} on {@code producer} behind device work that waits for {@code gate} and
   * then adds "produced" to {@code order}; returns once the record's marker is stored (the stream's
   * actor stores it before it submits the next item, so once that item is submitted a wait sees the
   * marker; the mark count alone rises before it is stored).
   */
  private static void recordBehindGatedWork(
      Stream producer, Event ready, CountDownLatch gate, List<String> order) {
    device(
        producer,
        "produce",
        () -> {
          Engines.awaiting(gate).run();
          order.add("produced");
        });
    ready.record(producer);
    QueueDevice.Work afterRecord = new QueueDevice.Work(() -> {});
    ENGINE.enqueue(producer, "after the record", afterRecord);
    assertTrue(
        Engines.eventually(() -> DEVICE.submitted.contains(afterRecord)), "record's marker stored");
  }

  @Test
  void aQueueThatThrowsFromMarkOrWaitForFailsTheRecordOrWaitsOnTheHostAndTheStreamGoesOn() {
    Stream producer = newStream();
    Stream consumer = newStream();
    List<String> order = new CopyOnWriteArrayList<>();
    CountDownLatch gate = new CountDownLatch(1);
    Event ready = Engines.newEvent(ENGINE, EventOptions.defaults());
    recordBehindGatedWork(producer, ready, gate, order);
    DEVICE.refuseMarks.set(true);
    try {
      ready.block(consumer); // waitFor throws: the consumer waits for the record on the host
      device(consumer, "consume", () -> order.add("consumed"));
      gate.countDown();
      consumer.synchronize();
      assertEquals(List.of("produced", "consumed"), order);

      Event refused = Engines.newEvent(ENGINE, EventOptions.defaults());
      CountDownLatch second = new CountDownLatch(1);
      device(producer, "held", Engines.awaiting(second)); // the record goes to the device queue
      refused.record(producer); // mark throws: the record fails, in order
      second.countDown();
      DeviceExecutionException e =
          assertThrows(
              DeviceExecutionException.class, () -> refused.synchronize(Duration.ofSeconds(10)));
      assertTrue(e.getMessage().contains("the queue refuses markers"), e.getMessage());
    } finally {
      DEVICE.refuseMarks.set(false);
    }
    assertThrows(DeviceExecutionException.class, producer::synchronize); // the stream's failure
    device(producer, "later", () -> order.add("later"));
    producer.synchronize(); // reported once; later work still runs
    assertEquals(List.of("produced", "consumed", "later"), order);
  }

  @Test
  void aStreamWaitingForAFailedDependentStageNamesTheCauseNotItsWrapper() {
    Stream stream = newStream();
    CompletableFuture<Void> source = new CompletableFuture<>();
    stream.waitFor(source.thenRun(() -> {})); // fails with a CompletionException around the cause
    source.completeExceptionally(new IllegalStateException("upstream broke"));
    DeviceExecutionException e = assertThrows(DeviceExecutionException.class, stream::synchronize);
    assertTrue(
        e.getMessage().contains("upstream broke")
            && !e.getMessage().contains("CompletionException"),
        e.getMessage());
  }

  @Test
  void aStreamWhoseActorFailsSaysWhyInsteadOfBlamingAShutdown() {
    Stream stream = newStream();
    stream.synchronize(); // the actor exists and is idle
    DEVICE.refuseFlushes.set(true);
    try {
      device(stream, "work", () -> {}); // the drain's flush throws: the actor stops
      // The synchronize's item fails with why (DeviceExecutionException), or, if the actor stopped
      // first, the stream refuses it at the call (IllegalStateException), saying the same.
      RuntimeException e = assertThrows(RuntimeException.class, stream::synchronize);
      assertTrue(
          e instanceof DeviceExecutionException || e instanceof IllegalStateException,
          () -> "unexpected " + e);
      assertTrue(
          e.getMessage().contains("the stream's actor failed and stopped")
              && e.getMessage().contains("the queue cannot flush"),
          e.getMessage());
    } finally {
      DEVICE.refuseFlushes.set(false);
    }
  }

  @Test
  void aWaitOnARecordOfTheSameExecutorHappensOnTheDevice() {
    Stream producer = newStream();
    Stream consumer = newStream();
    List<String> order = new CopyOnWriteArrayList<>();
    CountDownLatch gate = new CountDownLatch(1);
    Event ready = Engines.newEvent(ENGINE, EventOptions.defaults());
    int marksBefore = DEVICE.marks.get();
    int waitsBefore = DEVICE.deviceWaits.get();
    recordBehindGatedWork(producer, ready, gate, order);
    assertTrue(DEVICE.marks.get() > marksBefore, "record submitted");
    ready.block(consumer);
    device(consumer, "consume", () -> order.add("consumed"));
    assertTrue(
        Engines.eventually(() -> DEVICE.deviceWaits.get() > waitsBefore), "device-side wait");
    gate.countDown();
    consumer.synchronize();
    assertEquals(List.of("produced", "consumed"), order);
  }

  @Test
  void aWaitThatRunsBeforeTheRecordReachedItsDeviceQueueStillWaitsOnTheDevice() {
    Stream producer = newStream();
    Stream consumer = newStream();
    List<String> order = new CopyOnWriteArrayList<>();
    CountDownLatch hold = new CountDownLatch(1);
    CountDownLatch gate = new CountDownLatch(1);
    Event ready = Engines.newEvent(ENGINE, EventOptions.defaults());
    int waitsBefore = DEVICE.deviceWaits.get();
    // A Java kernel holds the producer's actor, so its record stays unsubmitted, without a device
    // marker, while the consumer reaches its wait.
    producer.launch("holds the producer", Engines.awaiting(hold));
    device(
        producer,
        "produce",
        () -> {
          Engines.awaiting(gate).run();
          order.add("produced");
        });
    ready.record(producer);
    ready.block(consumer);
    device(consumer, "consume", () -> order.add("consumed"));
    hold.countDown(); // now the record reaches the producer's device queue, behind the gated work
    assertTrue(
        Engines.eventually(() -> DEVICE.deviceWaits.get() > waitsBefore),
        "the consumer's wait went to the device once the record had its marker");
    assertFalse(ready.query(), "the record is still behind the gated device work");
    gate.countDown();
    consumer.synchronize();
    assertEquals(List.of("produced", "consumed"), order);
  }

  @Test
  void failedDeviceWorkSurfacesAtTheNextSyncAndLaterWorkStillRuns() {
    Stream stream = newStream();
    List<String> order = new CopyOnWriteArrayList<>();
    device(
        stream,
        "boom",
        () -> {
          throw new IllegalStateException("device fault");
        });
    Event after = Engines.newEvent(ENGINE, EventOptions.defaults());
    after.record(stream);
    device(stream, "later", () -> order.add("later"));
    DeviceExecutionException failure =
        assertThrows(DeviceExecutionException.class, stream::synchronize);
    assertTrue(failure.getMessage().contains("device work 'boom'"), failure.getMessage());
    assertTrue(failure.getMessage().contains("device fault"), failure.getMessage());
    assertEquals(List.of("later"), order);
    assertThrows(DeviceExecutionException.class, after::synchronize);
    stream.synchronize(); // reported once
  }

  @Test
  void elapsedTimeComesFromTheDevicesEndTimes() {
    Stream stream = newStream();
    Event start = Engines.newEvent(ENGINE, EventOptions.timing());
    Event end = Engines.newEvent(ENGINE, EventOptions.timing());
    start.record(stream);
    device(stream, "work", () -> {});
    end.record(stream);
    end.synchronize();
    assertTrue(start.query());
    assertTrue(start.elapsedTime(end) >= 0);
  }

  @Test
  void waitStreamOnAStoppedStreamOfAnotherBackendFailsTheNextSyncInsteadOfThrowing() {
    ActorTestKit otherKit = ActorTestKit.create();
    ActorEngine other =
        Engines.start(
            otherKit.system(),
            EngineSpec.builder(DeviceType.of("elsewhere")).capabilities(Capability.EVENTS).build());
    Stream stopped = other.getNewStream(Device.of(DeviceType.of("elsewhere"), 0), 0);
    stopped.launch("ran", () -> {});
    stopped.synchronize();
    otherKit.shutdownTestKit(); // no record can be made there any more
    Stream stream = newStream();
    stream.waitStream(stopped);
    DeviceExecutionException e = assertThrows(DeviceExecutionException.class, stream::synchronize);
    assertTrue(e.getMessage().contains("accepts no more work"), e.getMessage());
  }

  @Test
  void aDeviceQueueThatCannotOpenFailsTheStreamsWorkInsteadOfWedgingIt() {
    ActorEngine broken =
        Engines.start(
            KIT.system(),
            EngineSpec.builder(DeviceType.of("unopenable"))
                .executor(
                    stream -> {
                      throw new IllegalStateException("no command queue left");
                    })
                .build());
    Stream stream = broken.getNewStream(Device.of(DeviceType.of("unopenable"), 0), 0);
    stream.launch("never runs", () -> {});
    CompletableFuture<Void> synced = stream.synchronizeAsync().toCompletableFuture();
    ExecutionException failed =
        assertThrows(ExecutionException.class, () -> synced.get(10, TimeUnit.SECONDS));
    assertTrue(failed.getCause().getMessage().contains("could not be opened"));
    assertTrue(failed.getCause().getMessage().contains("no command queue left"));
  }

  @Test
  void aSubmittedKernelSeesTheDeviceWorkBeforeIt() throws Exception {
    Stream stream = newStream();
    List<String> order = new CopyOnWriteArrayList<>();
    device(stream, "device", () -> order.add("device"));
    int seen = stream.submit("count", order::size).toCompletableFuture().get(10, TimeUnit.SECONDS);
    assertEquals(1, seen);
  }
}
