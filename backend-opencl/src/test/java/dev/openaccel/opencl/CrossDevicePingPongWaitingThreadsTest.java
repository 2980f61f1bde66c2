package dev.openaccel.opencl;

/** {@link CrossDevicePingPongTest} with commands' ends reported by waiting threads. */
class CrossDevicePingPongWaitingThreadsTest extends CrossDevicePingPongTest {
  @Override
  String config() {
    return "openaccel.opencl.completions = waiting-threads";
  }
}
