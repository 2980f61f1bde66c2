package dev.openaccel.conformance.minimal;

import dev.openaccel.conformance.BackendConformance;
import dev.openaccel.conformance.BackendUnderTest;

/**
 * The whole conformance kit against the runtime's {@code minimal} test backend, run the way a
 * third-party backend runs it: one test class, outside the kit's package, that extends {@link
 * BackendConformance} and names the device type. The backend declares only {@code EVENTS}, so the
 * run proves that the engine reports every undeclared capability as unsupported. The backend is
 * registered through this module's test resources ({@code META-INF/services}), alone.
 */
@BackendUnderTest(deviceType = "minimal", config = "openaccel.default-device-type = minimal")
class MinimalBackendConformanceTest extends BackendConformance {}
