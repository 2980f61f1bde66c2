package dev.openaccel.runtime.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.openaccel.runtime.DeviceType;
import org.junit.jupiter.api.Test;

class WaitStrategyTest {
  private static final DeviceType TYPE = DeviceType.of("test");

  @Test
  void parseKnowsEveryConfigName() {
    for (WaitStrategy strategy : WaitStrategy.values()) {
      assertEquals(strategy, WaitStrategy.parse("key", strategy.configName()));
    }
  }

  @Test
  void parseRejectsAnUnknownNameNamingKeyAndValue() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> WaitStrategy.parse("a.b", "fast"));
    assertEquals("a.b must be one of blocking, yielding, busy-spin, got 'fast'", e.getMessage());
  }

  @Test
  void specDefaultsToBlockingAndAppliesPerDeviceOverrides() {
    EngineSpec spec =
        EngineSpec.builder(TYPE)
            .deviceCount(3)
            .waitStrategy(WaitStrategy.YIELDING)
            .waitStrategy(2, WaitStrategy.BUSY_SPIN)
            .build();
    assertEquals(WaitStrategy.YIELDING, spec.waitStrategy(0));
    assertEquals(WaitStrategy.BUSY_SPIN, spec.waitStrategy(2));
    assertEquals(WaitStrategy.BLOCKING, EngineSpec.builder(TYPE).build().waitStrategy(0));
  }

  @Test
  void specRejectsAnOverrideForAMissingDevice() {
    EngineSpec.Builder builder =
        EngineSpec.builder(TYPE).deviceCount(2).waitStrategy(2, WaitStrategy.YIELDING);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, builder::build);
    assertEquals("waitStrategy given for device 2, but devices are 0..1", e.getMessage());
  }
}
