package dev.openaccel.samples.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.Graph;
import dev.openaccel.runtime.GraphCapture;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.trace.TraceEvent;
import dev.openaccel.testkit.OpenAccelTest;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.actor.testkit.typed.annotations.JUnit5TestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJUnit5Extension;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The trace collector pairs kernel start and finish events into spans and waits for stragglers. The
 * collector runs in the test kit's actor system; {@link OpenAccelTest} hands the tests that
 * system's accelerator and checks that each closes what it opened.
 */
@ExtendWith(TestKitJUnit5Extension.class)
@OpenAccelTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TraceCollectorTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  @JUnit5TestKit public ActorTestKit testKit = ActorTestKit.create("trace-collector");

  private ActorRef<TraceCollector.Command> subscribedCollector() throws InterruptedException {
    ActorRef<TraceCollector.Command> collector = testKit.spawn(TraceCollector.create());
    TraceCollector.await(collector, testKit.system(), 0, WAIT); // answered: subscribed
    return collector;
  }

  @Test
  void eachKernelBecomesOneSpanOnItsStream(Accelerator accelerator) throws Exception {
    ActorRef<TraceCollector.Command> collector = subscribedCollector();
    try (Stream stream = accelerator.newStream(Device.parse("openreg:1"))) {
      stream.launch("first", () -> {});
      stream.launch(
          "second",
          () -> {
            throw new IllegalStateException("boom");
          });
      List<Span> spans = TraceCollector.await(collector, testKit.system(), 2, WAIT).spans();
      assertEquals(List.of("first", "second"), spans.stream().map(Span::name).toList());
      for (Span span : spans) {
        assertEquals(1, span.device());
        assertEquals(stream.id(), span.streamId());
      }
      assertEquals(false, spans.get(0).failed());
      assertEquals(true, spans.get(1).failed());
      assertTrue(spans.get(0).endNanos() <= spans.get(1).startNanos(), "stream order");
      assertThrows(DeviceExecutionException.class, stream::synchronize, "the failure reported");
    }
  }

  @Test
  void aWaitIsPairedWithTheRecordItWaitsForAndMemoryTotalsAreKept(Accelerator accelerator)
      throws Exception {
    ActorRef<TraceCollector.Command> collector = subscribedCollector();
    Device device = Device.parse("openreg:0");
    try (Stream producer = accelerator.newStream(device);
        Stream consumer = accelerator.newStream(device);
        Event ready = accelerator.newEvent(device.type(), EventOptions.defaults())) {
      try (DeviceBuffer buffer = accelerator.allocate(device, 4096)) {
        producer.launch("produce", () -> {});
        ready.record(producer);
        consumer.waitEvent(ready);
        consumer.launch("consume", () -> {});
        consumer.synchronize();
      }
      TraceLog log = TraceCollector.await(collector, testKit.system(), 2, WAIT);
      List<Dependency> edges =
          log.dependencies().stream().filter(d -> d.eventId() == ready.id()).toList();
      assertEquals(1, edges.size(), edges.toString());
      Dependency edge = edges.get(0);
      assertEquals(
          List.of(0L, producer.id(), 0L, consumer.id()),
          List.of(
              (long) edge.recordDevice(),
              edge.recordStream(),
              (long) edge.waitDevice(),
              edge.waitStream()));
      assertTrue(
          log.memory().stream().anyMatch(m -> m.device() == 0 && m.allocatedBytes() >= 4096),
          "allocation seen: " + log.memory());
    }
  }

  @Test
  void eachGraphReplayIsPairedAndEnclosesItsKernels(Accelerator accelerator) throws Exception {
    ActorRef<TraceCollector.Command> collector = subscribedCollector();
    AtomicInteger runs = new AtomicInteger();
    try (Stream main = accelerator.newStream(Device.parse("openreg:0"))) {
      Graph graph;
      try (GraphCapture capture = main.beginCapture()) {
        main.launch("first", () -> {});
        main.launch(
            "second",
            () -> {
              if (runs.incrementAndGet() == 2) {
                throw new IllegalStateException("the second replay fails");
              }
            });
        main.launch("third", () -> {});
        graph = capture.end();
      }
      // Held by a kernel until both replays are enqueued, so no replay kernel can start before
      // its launch is stamped; the held kernel is running at both launches and is neither's.
      CountDownLatch entered = new CountDownLatch(1);
      CountDownLatch gate = new CountDownLatch(1);
      main.launch("held", () -> awaitGate(entered, gate));
      assertTrue(entered.await(WAIT.toMillis(), TimeUnit.MILLISECONDS), "the held kernel started");
      CompletableFuture<Void> one = graph.launch(main).toCompletableFuture();
      CompletableFuture<Void> two = graph.launch(main).toCompletableFuture();
      gate.countDown();
      one.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
      ExecutionException failed =
          assertThrows(
              ExecutionException.class, () -> two.get(WAIT.toMillis(), TimeUnit.MILLISECONDS));
      assertTrue(failed.getCause() instanceof DeviceExecutionException, failed.toString());
      assertThrows(DeviceExecutionException.class, main::synchronize, "the failure reported");
      TraceLog log = TraceCollector.await(collector, testKit.system(), 7, 2, WAIT);
      assertEquals(
          List.of(1L, 2L), log.replays().stream().map(GraphReplay::replay).sorted().toList());
      Track track = new Track(0, "openreg:0", main.id(), "main");
      List<ReplaySpan> replays = new Timeline(List.of(track), log).replaysOf(track);
      assertEquals(2, replays.size(), replays.toString());
      for (ReplaySpan replay : replays) {
        assertEquals(
            List.of("first", "second", "third"),
            replay.kernels().stream().map(Span::name).toList(),
            replay.name());
      }
      assertEquals(List.of(false, true), replays.stream().map(ReplaySpan::failed).toList());
    }
  }

  /**
   * The gate is a kernel of its own, not a held stream (the testkit's {@code StreamHold} or {@code
   * StreamStepper} hold a stream before its kernel starts): the collector must not answer for a
   * kernel that started and has not finished.
   */
  @Test
  void awaitAnswersOnlyOnceTheKernelsHaveFinished(Accelerator accelerator) throws Exception {
    ActorRef<TraceCollector.Command> collector = subscribedCollector();
    try (Stream stream = accelerator.newStream(Device.parse("openreg:0"))) {
      CountDownLatch entered = new CountDownLatch(1);
      CountDownLatch gate = new CountDownLatch(1);
      CompletableFuture<List<Span>> spans =
          CompletableFuture.supplyAsync(() -> awaitQuietly(collector, 1));
      stream.launch("gated", () -> awaitGate(entered, gate));
      assertTrue(entered.await(WAIT.toMillis(), TimeUnit.MILLISECONDS), "the kernel started");
      assertThrows(
          java.util.concurrent.TimeoutException.class, () -> spans.get(100, TimeUnit.MILLISECONDS));
      gate.countDown();
      assertEquals("gated", spans.get(10, TimeUnit.SECONDS).get(0).name());
    }
  }

  /**
   * The cluster module publishes its collectives on the public trace bus; this test publishes the
   * same events, as a member of a group on one of this accelerator's streams would.
   */
  @Test
  void aCollectiveOperationIsPairedWithItsStepsFromTheBus(Accelerator accelerator)
      throws Exception {
    ActorRef<TraceCollector.Command> collector = subscribedCollector();
    Device device = Device.parse("openreg:0");
    for (int step = 0; step < 4; step++) {
      long ready = 1_000 + step * 1_000L;
      accelerator
          .trace()
          .publish(
              new TraceEvent.CollectiveStep(
                  device, 65, "grads", "allReduce", 3, step, 0, 1024, ready, ready + 500));
    }
    accelerator
        .trace()
        .publish(
            new TraceEvent.CollectiveFinished(
                device, 65, "grads", "allReduce", 3, 3072, false, 500, 6_000));
    TraceLog log = TraceCollector.await(collector, testKit.system(), 0, 0, 1, WAIT);
    assertEquals(1, log.collectives().size(), log.collectives().toString());
    Collective collective = log.collectives().get(0);
    assertEquals("allReduce #3 'grads'", collective.name());
    assertEquals(
        List.of(0, 1, 2, 3), collective.pieces().stream().map(CollectivePiece::step).toList());
  }

  @Test
  void awaitFailsClearlyWhenTheKernelsNeverCome() throws Exception {
    ActorRef<TraceCollector.Command> collector = subscribedCollector();
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () -> TraceCollector.await(collector, testKit.system(), 1, Duration.ofMillis(200)));
    assertTrue(e.getMessage().contains("did not deliver 1 finished kernels"), e.getMessage());
  }

  @Test
  void awaitFailsClearlyWhenTheCollectivesNeverCome() throws Exception {
    ActorRef<TraceCollector.Command> collector = subscribedCollector();
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () ->
                TraceCollector.await(collector, testKit.system(), 0, 0, 2, Duration.ofMillis(200)));
    assertTrue(
        e.getMessage().contains("0 ended replays and 2 ended collective operations"),
        e.getMessage());
  }

  private List<Span> awaitQuietly(ActorRef<TraceCollector.Command> collector, int kernels) {
    try {
      return TraceCollector.await(collector, testKit.system(), kernels, WAIT).spans();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static void awaitGate(CountDownLatch entered, CountDownLatch gate) {
    entered.countDown();
    try {
      if (!gate.await(10, TimeUnit.SECONDS)) {
        throw new IllegalStateException("gate not opened within 10 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
