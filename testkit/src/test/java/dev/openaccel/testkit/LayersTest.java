package dev.openaccel.testkit;

import dev.openaccel.conformance.BackendLayers;
import org.junit.jupiter.api.Test;

/**
 * The place of the testkit in the layers of {@code docs/ARCHITECTURE.md}: it uses an accelerator
 * through the runtime's public API only (the trace bus included), never its SPI or its {@code
 * internal} packages, and keeps no reassignable static field. A failure names the rule.
 */
class LayersTest {
  @Test
  void usesThePublicApiOnlyAndNoMutableStaticState() {
    BackendLayers.checkUsesOnlyPublicApi("dev.openaccel.testkit", "the testkit");
  }
}
