package dev.openaccel.openreg.architecture;

import dev.openaccel.conformance.BackendLayers;
import org.junit.jupiter.api.Test;

/**
 * The OpenReg backend's place in the layers of {@code docs/ARCHITECTURE.md} ({@link
 * BackendLayers}).
 */
class LayersTest {
  @Test
  void usesOnlyThePublicApiAndTheSpi() {
    BackendLayers.checkUsesOnlyPublicApiAndSpi("dev.openaccel.openreg", "OpenReg");
  }
}
