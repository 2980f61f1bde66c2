package dev.openaccel.opencl;

import dev.openaccel.conformance.BackendConformance;
import dev.openaccel.conformance.BackendUnderTest;

/**
 * The conformance suite (TCK) against OpenCL with commands' ends reported by threads blocked in
 * {@code clWaitForEvents} ({@code openaccel.opencl.completions = waiting-threads}, the mode
 * NVIDIA's platform gets) instead of completion callbacks.
 */
@RequiresOpenCl
@BackendUnderTest(
    deviceType = "opencl",
    config =
        "openaccel.default-device-type = opencl\nopenaccel.opencl.memory-per-device = 64MiB\n"
            + "openaccel.opencl.completions = waiting-threads")
class OpenClWaitingThreadsConformanceTest extends BackendConformance {}
