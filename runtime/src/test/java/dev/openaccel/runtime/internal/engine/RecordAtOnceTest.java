package dev.openaccel.runtime.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.Capability;
import dev.openaccel.runtime.spi.EngineSpec;
import dev.openaccel.runtime.spi.EventFlag;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * A record on a stream without a device queue whose work has all completed, with no failure to
 * report, completes where it is made; otherwise it goes through the stream as before: behind
 * pending work, carrying an unreported failure, or as a timing record. A wait on such a record, and
 * a stream wait on such a stream, enqueue nothing.
 */
class RecordAtOnceTest {
  private static final ActorTestKit KIT = ActorTestKit.create();
  private static final DeviceType TYPE = DeviceType.of("atonce");
  private static final ActorEngine ENGINE =
      Engines.start(
          KIT.system(),
          EngineSpec.builder(TYPE)
              .computeUnits(2)
              .capabilities(Capability.EVENTS, Capability.TIMING)
              .build());
  private static final Device D0 = Device.of(TYPE, 0);

  @AfterAll
  static void stop() {
    KIT.shutdownTestKit();
  }

  /** A stream whose actor has started and which has drained its first work. */
  private static StreamQueue idleStream() {
    StreamQueue stream = ENGINE.handleOf(ENGINE.getNewStream(D0, 0));
    stream.launch("first", () -> {});
    stream.synchronize();
    assertTrue(Engines.eventually(stream::completesAtOnce), "the stream settles");
    return stream;
  }

  private static EngineEvent record(StreamQueue stream, EventFlag flag) {
    return (EngineEvent) ENGINE.record(null, stream.stream(), -1, flag);
  }

  @Test
  void aRecordOnAnIdleStreamIsCompleteWhenTheCallReturns() {
    StreamQueue stream = idleStream();
    EngineEvent event = record(stream, EventFlag.PYTORCH_DEFAULT);
    assertTrue(event.latest().isDone());
    assertNull(event.latest().failure());
    assertTrue(stream.query(), "nothing was enqueued");
    EngineEvent again = record(stream, EventFlag.PYTORCH_DEFAULT);
    assertTrue(again.latest().isDone());
    assertEquals(1, again.latest().number());
  }

  @Test
  void generationsCountOnAcrossRecordsAtOnceAndThroughTheStream() {
    StreamQueue stream = idleStream();
    EngineEvent event = record(stream, EventFlag.PYTORCH_DEFAULT);
    CountDownLatch gate = Engines.hold(stream.stream());
    ENGINE.record(event, stream.stream(), 0, EventFlag.PYTORCH_DEFAULT);
    Generation second = event.latest();
    assertEquals(2, second.number());
    assertFalse(second.isDone(), "behind a running kernel");
    gate.countDown();
    assertTrue(second.await(Duration.ofSeconds(10), null));
    assertTrue(Engines.eventually(stream::completesAtOnce));
    ENGINE.record(event, stream.stream(), 0, EventFlag.PYTORCH_DEFAULT);
    assertEquals(3, event.latest().number());
    assertTrue(event.latest().isDone());
  }

  @Test
  void aRecordBehindPendingWorkCompletesAfterIt() {
    StreamQueue stream = idleStream();
    List<String> order = new CopyOnWriteArrayList<>();
    CountDownLatch gate = Engines.hold(stream.stream());
    stream.launch("k", () -> order.add("kernel"));
    EngineEvent event = record(stream, EventFlag.PYTORCH_DEFAULT);
    event.latest().onComplete(done -> order.add("record"));
    assertFalse(event.latest().isDone());
    gate.countDown();
    assertTrue(event.latest().await(Duration.ofSeconds(10), null));
    assertEquals(List.of("kernel", "record"), order);
  }

  @Test
  void aRecordAfterAFailedKernelStillReportsTheFailure() {
    StreamQueue stream = idleStream();
    stream.launch(
        "broken",
        () -> {
          throw new IllegalStateException("boom");
        });
    assertTrue(Engines.eventually(stream::query), "the failed kernel ran");
    assertFalse(stream.completesAtOnce(), "a failure awaits reporting");
    EngineEvent event = record(stream, EventFlag.PYTORCH_DEFAULT);
    assertTrue(event.latest().await(Duration.ofSeconds(10), null));
    assertNotNull(event.latest().failure());
    assertTrue(event.latest().failure().getMessage().contains("boom"));
    assertThrows(DeviceExecutionException.class, stream::synchronize);
    EngineEvent after = record(stream, EventFlag.PYTORCH_DEFAULT);
    assertTrue(after.latest().isDone(), "reported: the stream is settled again");
    assertNull(after.latest().failure());
  }

  @Test
  void aTimingRecordOnAnIdleStreamCompletesThroughTheStream() {
    StreamQueue stream = idleStream();
    EngineEvent timing = record(stream, EventFlag.BACKEND_DEFAULT);
    assertTrue(timing.latest().await(Duration.ofSeconds(10), null));
    assertNull(timing.latest().failure());
    assertTrue(Engines.eventually(stream::completesAtOnce), "it was the stream's item");
  }

  @Test
  void aWaitOnACompletedRecordLeavesTheStreamSettled() {
    StreamQueue source = idleStream();
    StreamQueue waiting = idleStream();
    EngineEvent event = record(source, EventFlag.PYTORCH_DEFAULT);
    ENGINE.block(event, waiting.stream());
    assertTrue(waiting.completesAtOnce(), "no wait item");
    Stream other = source.stream();
    waiting.waitFor(other);
    assertTrue(waiting.completesAtOnce(), "no wait item for a settled stream either");
  }

  @Test
  void aWaitOnAFailedRecordStillCarriesTheFailure() {
    StreamQueue source = idleStream();
    StreamQueue waiting = idleStream();
    source.launch(
        "broken",
        () -> {
          throw new IllegalStateException("bad");
        });
    EngineEvent event = record(source, EventFlag.PYTORCH_DEFAULT);
    assertTrue(event.latest().await(Duration.ofSeconds(10), null));
    ENGINE.block(event, waiting.stream());
    DeviceExecutionException failure =
        assertThrows(DeviceExecutionException.class, waiting::synchronize);
    assertTrue(failure.getMessage().contains("bad"));
  }
}
