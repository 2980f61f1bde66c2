package dev.openaccel.openreg.conformance;

import dev.openaccel.conformance.BackendConformance;
import dev.openaccel.conformance.BackendUnderTest;

/**
 * The runtime's backend conformance suite (TCK) against OpenReg, one nested class per area. OpenReg
 * declares every capability, so the suite proves each of them works.
 */
@BackendUnderTest(deviceType = "openreg", config = "openaccel.openreg.memory-per-device = 64MiB")
class OpenRegConformanceTest extends BackendConformance {}
