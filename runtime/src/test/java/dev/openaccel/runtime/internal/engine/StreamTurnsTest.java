package dev.openaccel.runtime.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.EngineSpec;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Collectors;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * A stream's turn on its device thread: after each batch it yields the thread only if another actor
 * of the device waits for one; alone on its device, it keeps its thread.
 */
class StreamTurnsTest {
  private static final ActorTestKit KIT = ActorTestKit.create();
  private static final int BATCH = 4;

  @AfterAll
  static void stop() {
    KIT.shutdownTestKit();
  }

  private static ActorEngine engine(String type, int threads) {
    return Engines.start(
        KIT.system(),
        EngineSpec.builder(DeviceType.of(type)).computeUnits(threads).batch(BATCH).build());
  }

  @Test
  void aStreamAloneOnItsDeviceRunsPastItsBatchOnOneThread() {
    ActorEngine engine = engine("turnsalone", 3);
    Stream stream = engine.getNewStream(Device.of(engine.type(), 0), 0);
    List<Thread> threads = new CopyOnWriteArrayList<>();
    CountDownLatch gate = Engines.hold(stream);
    for (int i = 0; i < 10 * BATCH; i++) {
      stream.launch("k" + i, () -> threads.add(Thread.currentThread()));
    }
    gate.countDown();
    stream.synchronize();
    assertEquals(10 * BATCH, threads.size());
    Set<Thread> distinct = Set.copyOf(threads);
    assertEquals(1, distinct.size(), "one turn, one thread: " + distinct);
  }

  @Test
  void aStreamYieldsAfterItsBatchWhenAnotherStreamWaitsForTheThread() {
    ActorEngine engine = engine("turnsshared", 1);
    Device device = Device.of(engine.type(), 0);
    Stream first = engine.getNewStream(device, 0);
    Stream second = engine.getNewStream(device, 0);
    List<String> order = new CopyOnWriteArrayList<>();
    CountDownLatch gate = Engines.hold(first);
    for (int i = 0; i < 5 * BATCH; i++) {
      first.launch("a" + i, () -> order.add("a"));
      second.launch("b" + i, () -> order.add("b"));
    }
    gate.countDown();
    first.synchronize();
    second.synchronize();
    String ran = order.stream().collect(Collectors.joining());
    assertEquals(10 * BATCH, ran.length());
    assertTrue(ran.indexOf('b') < ran.lastIndexOf('a'), "the streams took turns: " + ran);
  }
}
