package dev.openaccel.opencl;

import dev.openaccel.conformance.BackendLayers;
import org.junit.jupiter.api.Test;

/**
 * The OpenCL backend's place in the layers of {@code docs/ARCHITECTURE.md} ({@link BackendLayers}).
 */
class LayersTest {
  @Test
  void usesOnlyThePublicApiAndTheSpi() {
    BackendLayers.checkUsesOnlyPublicApiAndSpi("dev.openaccel.opencl", "OpenCL");
  }
}
