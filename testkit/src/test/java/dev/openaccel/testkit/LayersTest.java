package dev.openaccel.testkit;

import dev.openaccel.conformance.BackendLayers;
import dev.openaccel.runtime.spi.DeviceControl;
import org.junit.jupiter.api.Test;

/**
 * The place of the testkit in the layers of {@code docs/ARCHITECTURE.md}: it uses an accelerator
 * through the runtime's public API only (the trace bus included) and, of the SPI, only the {@link
 * DeviceControl} it installs; never its {@code internal} packages; and it keeps no reassignable
 * static field. A failure names the rule.
 */
class LayersTest {
  @Test
  void usesThePublicApiAndTheDeviceControlOnlyAndNoMutableStaticState() {
    BackendLayers.checkUsesOnlyPublicApi(
        "dev.openaccel.testkit", "the testkit", DeviceControl.class);
  }
}
