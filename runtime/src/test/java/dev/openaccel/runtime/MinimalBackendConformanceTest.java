package dev.openaccel.runtime;

import dev.openaccel.runtime.tck.BackendConformance;
import dev.openaccel.runtime.tck.BackendUnderTest;

/**
 * The conformance suite against the {@code minimal} test backend, which declares only {@code
 * EVENTS}: it proves that the engine reports every undeclared capability as unsupported.
 */
@BackendUnderTest(
    deviceType = "minimal",
    config = "openaccel.default-device-type = minimal\nopenaccel.disabled-backends = [broken]")
class MinimalBackendConformanceTest extends BackendConformance {}
