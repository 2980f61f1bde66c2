package dev.openaccel.openreg.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.trace.TraceEvent;
import java.time.Duration;
import org.apache.pekko.actor.testkit.typed.annotations.JUnit5TestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJUnit5Extension;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/** Allocation and free appear on the trace bus with the device's running total. */
@ExtendWith(TestKitJUnit5Extension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MemoryTraceTest {
  @JUnit5TestKit public ActorTestKit testKit = ActorTestKit.create();

  @Test
  void allocateAndFreeAreTracedWithTheAllocatedTotal() {
    Accelerator accelerator = Accelerator.get(testKit.system());
    Device device = Device.parse("openreg:1");
    long before = accelerator.memoryStats(device).allocated();
    TestProbe<TraceEvent> probe = testKit.createTestProbe();
    accelerator.trace().subscribe(probe.ref());
    DeviceBuffer buffer = accelerator.allocate(device, 3000); // a 3072-byte block
    buffer.close();
    TraceEvent.MemoryAllocated allocated =
        probe.expectMessageClass(TraceEvent.MemoryAllocated.class, Duration.ofSeconds(10));
    TraceEvent.MemoryFreed freed =
        probe.expectMessageClass(TraceEvent.MemoryFreed.class, Duration.ofSeconds(10));
    accelerator.trace().unsubscribe(probe.ref());
    assertEquals(device, allocated.device());
    assertEquals(3072, allocated.bytes());
    assertEquals(before + 3072, allocated.allocatedBytes());
    assertEquals(allocated.bufferId(), freed.bufferId());
    assertEquals(before, freed.allocatedBytes());
  }
}
