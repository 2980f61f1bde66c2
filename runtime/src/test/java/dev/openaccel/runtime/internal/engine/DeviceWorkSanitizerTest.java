package dev.openaccel.runtime.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.UnsynchronizedAccessException;
import dev.openaccel.runtime.spi.Capability;
import dev.openaccel.runtime.spi.EngineSpec;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The stream sanitizer on a backend's device work: {@code Engine.enqueue} checks the buffers the
 * work declares ({@code DeviceWork.reads}, {@code writes}) as {@code kernel 'name'}; work it
 * refuses is discarded, never submitted, and the stream stays usable.
 */
class DeviceWorkSanitizerTest {
  private static final DeviceType TYPE = DeviceType.of("declaring");
  private static final Device D0 = Device.of(TYPE, 0);

  private final ActorTestKit kit = ActorTestKit.create();
  private final QueueDevice device = new QueueDevice();
  private final AtomicInteger ran = new AtomicInteger();
  private final AtomicInteger discarded = new AtomicInteger();

  @AfterEach
  void stop() {
    kit.shutdownTestKit();
  }

  private ActorEngine engine(SanitizerMode mode) {
    return engine(TYPE, mode);
  }

  private ActorEngine engine(DeviceType type, SanitizerMode mode) {
    EngineSpec spec =
        EngineSpec.builder(type)
            .capabilities(Capability.EVENTS, Capability.DEVICE_MEMORY)
            .executor(device)
            .memory(new QueueMemory())
            .build();
    return Engines.start(kit.system(), spec, mode);
  }

  private QueueDevice.Work work(List<DeviceBuffer> reads, List<DeviceBuffer> writes) {
    return new QueueDevice.Work(
        () -> {}, ran::incrementAndGet, discarded::incrementAndGet, reads, writes);
  }

  @Test
  void aDeclaredReadRacingAWriteOfAnotherStreamThrowsAndTheWorkIsDiscarded() {
    ActorEngine engine = engine(SanitizerMode.THROW);
    Stream s1 = engine.getNewStream(D0, 0);
    Stream s2 = engine.getNewStream(D0, 0);
    DeviceBuffer buffer = engine.allocate(s1, 64);
    engine.enqueue(s1, "produce", work(List.of(), List.of(buffer)));
    QueueDevice.Work consume = work(List.of(buffer), List.of());
    UnsynchronizedAccessException e =
        assertThrows(
            UnsynchronizedAccessException.class, () -> engine.enqueue(s2, "consume", consume));
    assertEquals(
        "unsynchronized access to "
            + buffer
            + ": kernel 'consume' (read) at position 1 of "
            + s2
            + " is not ordered after kernel 'produce' (write) at position 1 of "
            + s1
            + "; add waitEvent(an event recorded on "
            + s1
            + " after kernel 'produce') or waitStream("
            + s1
            + ") on "
            + s2
            + " before kernel 'consume', or synchronize "
            + s1
            + " before enqueuing it",
        e.getMessage());
    assertEquals(1, discarded.get(), "the refused work was given back");
    s2.waitStream(s1);
    engine.enqueue(s2, "consume", work(List.of(buffer), List.of()));
    s2.synchronize();
    assertFalse(device.submitted.contains(consume), "the refused work was submitted");
    assertEquals(2, ran.get());
  }

  @Test
  void aDeclaredBufferOfAnotherEngineIsRefusedAndTheWorkIsDiscarded() {
    ActorEngine engine = engine(SanitizerMode.THROW);
    DeviceType otherType = DeviceType.of("declaring_other");
    ActorEngine other = engine(otherType, SanitizerMode.OFF);
    Stream stream = engine.getNewStream(D0, 0);
    DeviceBuffer foreign = other.allocate(other.getNewStream(Device.of(otherType, 0), 0), 64);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> engine.enqueue(stream, "use", work(List.of(foreign), List.of())));
    assertTrue(e.getMessage().startsWith(foreign + " was not allocated by"), e.getMessage());
    assertEquals(1, discarded.get());
  }

  @Test
  void withTheSanitizerOffTheSameRaceRunsUnchecked() {
    ActorEngine engine = engine(SanitizerMode.OFF);
    Stream s1 = engine.getNewStream(D0, 0);
    Stream s2 = engine.getNewStream(D0, 0);
    DeviceBuffer buffer = engine.allocate(s1, 64);
    engine.enqueue(s1, "produce", work(List.of(), List.of(buffer)));
    engine.enqueue(s2, "consume", work(List.of(buffer), List.of()));
    s1.synchronize();
    s2.synchronize();
    assertEquals(2, ran.get());
    assertEquals(0, discarded.get());
  }
}
