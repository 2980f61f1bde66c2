package dev.openaccel.opencl;

import dev.openaccel.conformance.BackendConformance;
import dev.openaccel.conformance.BackendUnderTest;

/**
 * The runtime's backend conformance suite (TCK) against OpenCL, one nested class per area: the
 * declared capabilities work, and {@code STREAM_PRIORITIES}, undeclared, collapses to priority 0.
 */
@RequiresOpenCl
@BackendUnderTest(
    deviceType = "opencl",
    config = "openaccel.default-device-type = opencl\nopenaccel.opencl.memory-per-device = 64MiB")
class OpenClConformanceTest extends BackendConformance {}
