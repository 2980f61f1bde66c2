package dev.openaccel.runtime.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.Capability;
import dev.openaccel.runtime.spi.EngineSpec;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * {@code emptyCache} gives a backend's own memory back through {@code DeviceMemory.release}: each
 * cached region once, no region of an open buffer, and the region of a buffer recorded on a busy
 * stream only once that stream's work is done.
 */
class EmptyCacheReleaseTest {
  private static final DeviceType TYPE = DeviceType.of("emptied");
  private static final Device D0 = Device.of(TYPE, 0);
  private static final ActorTestKit KIT = ActorTestKit.create();

  @AfterAll
  static void stop() {
    KIT.shutdownTestKit();
  }

  @Test
  void emptyCacheReleasesTheCachedRegionsAndThoseOfRecordedBuffersOnceTheirWorkIsDone()
      throws Exception {
    QueueMemory memory = new QueueMemory();
    ActorEngine engine =
        Engines.start(
            KIT.system(),
            EngineSpec.builder(TYPE)
                .capabilities(Capability.EVENTS, Capability.DEVICE_MEMORY)
                .executor(new QueueDevice())
                .memory(memory)
                .build());
    Stream stream = engine.getNewStream(D0, 0);
    Stream busy = engine.getNewStream(D0, 0);
    DeviceBuffer open = engine.allocate(stream, 4096);
    engine.allocate(stream, 8192).close(); // cached
    DeviceBuffer recorded = engine.allocate(stream, 16384);
    CountDownLatch gate = Engines.hold(busy);
    recorded.recordStream(busy);
    recorded.close(); // waits for the gated work on busy

    engine.emptyCache(D0);
    assertEquals(List.of(memory.reserved.get(1)), List.copyOf(memory.released), "the cached one");
    assertEquals(4096 + 16384, engine.memoryStats(D0).reserved());

    gate.countDown();
    engine.synchronizeStream(busy); // covers the work the close waits for, which ends first
    assertEquals(memory.reserved.subList(1, 3), List.copyOf(memory.released), "then the recorded");
    assertEquals(4096, engine.memoryStats(D0).reserved());
    open.close();
    assertEquals(2, memory.released.size(), "an open buffer's region stays with the allocator");
  }
}
