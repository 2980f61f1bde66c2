package dev.openaccel.openreg.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.typesafe.config.ConfigFactory;
import dev.openaccel.openreg.OpenRegSettings;
import dev.openaccel.runtime.spi.WaitStrategy;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code openaccel.openreg.wait-strategy} and its per-device overrides. */
class WaitStrategySettingsTest {

  private static OpenRegSettings settings(String hocon) {
    return OpenRegSettings.from(
        ConfigFactory.parseString(hocon).withFallback(ConfigFactory.load()));
  }

  @Test
  void defaultIsBlockingWithNoOverrides() {
    OpenRegSettings settings = settings("");
    assertEquals(WaitStrategy.BLOCKING, settings.waitStrategy());
    assertEquals(Map.of(), settings.deviceWaitStrategies());
  }

  @Test
  void aDeviceOverridesTheBackendsStrategy() {
    OpenRegSettings settings =
        settings(
            "openaccel.openreg.wait-strategy = yielding\n"
                + "openaccel.openreg.devices.1.wait-strategy = busy-spin");
    assertEquals(WaitStrategy.YIELDING, settings.waitStrategy());
    assertEquals(Map.of(1, WaitStrategy.BUSY_SPIN), settings.deviceWaitStrategies());
  }

  @Test
  void anUnknownStrategyNamesTheKeyAndTheValue() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> settings("openaccel.openreg.wait-strategy = fast"));
    assertEquals(
        "openaccel.openreg.wait-strategy must be one of blocking, yielding, busy-spin, got 'fast'",
        e.getMessage());
  }

  @Test
  void anUnknownDeviceStrategyNamesItsKey() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> settings("openaccel.openreg.devices.0.wait-strategy = spin"));
    assertEquals(
        "openaccel.openreg.devices.0.wait-strategy must be one of blocking, yielding, busy-spin,"
            + " got 'spin'",
        e.getMessage());
  }

  @Test
  void anOverrideForAMissingDeviceIsRejected() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> settings("openaccel.openreg.devices.2.wait-strategy = yielding"));
    assertEquals(
        "openaccel.openreg.devices.2.wait-strategy names device 2, but device-count is 2",
        e.getMessage());
  }

  @Test
  void aDeviceKeyThatIsNoIndexIsRejected() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> settings("openaccel.openreg.devices.first.wait-strategy = yielding"));
    assertEquals(
        "openaccel.openreg.devices must be keyed by device index, got 'first'", e.getMessage());
  }
}
