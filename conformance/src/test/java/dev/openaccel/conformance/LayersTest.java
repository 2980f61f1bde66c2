package dev.openaccel.conformance;

import org.junit.jupiter.api.Test;

/**
 * The conformance kit's place in the layers of {@code docs/ARCHITECTURE.md}: like a backend, it
 * uses only OpenAccel's public API and SPI, never the runtime's {@code internal} packages, and
 * keeps no reassignable static field. A failure names the rule.
 */
class LayersTest {
  @Test
  void usesOnlyThePublicApiAndTheSpi() {
    BackendLayers.checkUsesOnlyPublicApiAndSpi("dev.openaccel.conformance", "conformance");
  }
}
