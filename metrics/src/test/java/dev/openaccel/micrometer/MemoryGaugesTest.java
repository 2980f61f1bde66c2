package dev.openaccel.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The memory gauges: one set per device whose backend declares device memory. */
class MemoryGaugesTest extends MetricsTest {
  private static final long MIB = 1 << 20;
  private static final List<String> MEMORY =
      List.of(
          MeterNames.MEMORY_ALLOCATED,
          MeterNames.MEMORY_RESERVED,
          MeterNames.MEMORY_PEAK,
          MeterNames.MEMORY_CAPACITY);

  @Test
  void memoryGaugesFollowTheAllocationAndCloseOfABuffer() {
    double before = gauge(MeterNames.MEMORY_ALLOCATED, OPENREG_0).value();
    try (DeviceBuffer buffer = acc.allocate(OPENREG_0, 4 * MIB)) {
      assertEquals(4 * MIB, buffer.size());
      assertEquals(before + 4 * MIB, gauge(MeterNames.MEMORY_ALLOCATED, OPENREG_0).value());
      assertTrue(
          gauge(MeterNames.MEMORY_RESERVED, OPENREG_0).value() >= before + 4 * MIB,
          "reserved covers the live buffer");
      assertTrue(
          gauge(MeterNames.MEMORY_PEAK, OPENREG_0).value() >= before + 4 * MIB,
          "peak covers the live buffer");
    }
    assertEquals(before, gauge(MeterNames.MEMORY_ALLOCATED, OPENREG_0).value());
    assertTrue(
        gauge(MeterNames.MEMORY_PEAK, OPENREG_0).value() >= before + 4 * MIB,
        "peak keeps the highest allocation after the buffer closed");
  }

  @Test
  void capacityIsTheDevicesMemoryInBytes() {
    assertEquals(256 * MIB, gauge(MeterNames.MEMORY_CAPACITY, OPENREG_0).value());
    assertEquals("bytes", gauge(MeterNames.MEMORY_CAPACITY, OPENREG_0).getId().getBaseUnit());
  }

  @Test
  void everyDeviceWithMemoryHasItsGaugesAndOneWithoutHasNone() {
    for (String name : MEMORY) {
      for (int i = 0; i < acc.deviceCount(OPENREG); i++) {
        Device device = Device.of(OPENREG, i);
        assertEquals(
            OPENREG.name(), gauge(name, device).getId().getTag(MeterNames.DEVICE_TYPE), name);
      }
      assertNull(
          registry
              .find(name)
              .tag(MeterNames.DEVICE_TYPE, NoMemoryBackendProvider.TYPE.name())
              .gauge(),
          name + " of a device whose backend declares no memory");
    }
  }
}
