package dev.openaccel.runtime.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.Capability;
import dev.openaccel.runtime.spi.Completion;
import dev.openaccel.runtime.spi.DeviceQueue;
import dev.openaccel.runtime.spi.DeviceWork;
import dev.openaccel.runtime.spi.EngineSpec;
import dev.openaccel.runtime.spi.Marker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * A device queue may report ends lazily, only when the engine says the stream has submitted all it
 * has ({@link DeviceQueue#flush}): work, records and Java kernels behind device work still
 * complete.
 */
class DeviceQueueFlushTest {
  private static final ActorTestKit KIT = ActorTestKit.create();
  private static final DeviceType TYPE = DeviceType.of("lazy");
  private static final AtomicInteger FLUSHES = new AtomicInteger();
  private static final ActorEngine ENGINE =
      Engines.start(
          KIT.system(),
          EngineSpec.builder(TYPE)
              .capabilities(Capability.EVENTS)
              .executor(stream -> new LazyQueue())
              .build());
  private static final Device D0 = Device.of(TYPE, 0);

  private static final ExecutorService CALLBACKS = Executors.newSingleThreadExecutor();

  @AfterAll
  static void stop() {
    KIT.shutdownTestKit();
    CALLBACKS.shutdownNow();
  }

  /** Device work that runs when its queue reports it. */
  private record Step(Runnable body) implements DeviceWork {}

  /**
   * Reports nothing until flushed; then runs and completes everything, in submission order, on the
   * one callback thread all its flushes share (as an in-order device queue would).
   */
  private static final class LazyQueue implements DeviceQueue {
    private final List<Runnable> pending = new ArrayList<>();

    @Override
    public synchronized void submit(DeviceWork work, Completion done) {
      pending.add(
          () -> {
            ((Step) work).body().run();
            done.complete(System.nanoTime());
          });
    }

    @Override
    public synchronized Marker mark(Completion done) {
      pending.add(() -> done.complete(System.nanoTime()));
      return () -> {};
    }

    @Override
    public boolean waitFor(Marker marker, Completion done) {
      return false;
    }

    @Override
    public void flush() {
      List<Runnable> ends;
      synchronized (this) {
        ends = List.copyOf(pending);
        pending.clear();
      }
      FLUSHES.incrementAndGet();
      if (!ends.isEmpty()) {
        CALLBACKS.execute(() -> ends.forEach(Runnable::run));
      }
    }

    @Override
    public void close() {}
  }

  @Test
  void deviceWorkARecordAndAJavaKernelCompleteThoughOnlyAFlushReportsThem() throws Exception {
    Stream stream = ENGINE.getNewStream(D0, 0);
    List<String> order = new CopyOnWriteArrayList<>();
    int flushesBefore = FLUSHES.get();
    ENGINE.enqueue(stream, "first", new Step(() -> order.add("device 1")));
    ENGINE.enqueue(stream, "second", new Step(() -> order.add("device 2")));
    var record = Engines.newEvent(ENGINE, EventOptions.defaults());
    record.record(stream);
    var java = stream.submit("java", () -> order.add("java"));
    assertTrue(java.toCompletableFuture().get(10, TimeUnit.SECONDS));
    assertTrue(record.synchronize(Duration.ofSeconds(10)), "the record was never reported");
    stream.synchronizeAsync().toCompletableFuture().get(10, TimeUnit.SECONDS);
    assertEquals(List.of("device 1", "device 2", "java"), order);
    assertTrue(FLUSHES.get() > flushesBefore, "the engine never flushed the queue");
  }
}
