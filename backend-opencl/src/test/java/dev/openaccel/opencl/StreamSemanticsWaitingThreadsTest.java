package dev.openaccel.opencl;

/** {@link StreamSemanticsTest} with commands' ends reported by waiting threads. */
class StreamSemanticsWaitingThreadsTest extends StreamSemanticsTest {
  @Override
  String config() {
    return "openaccel.opencl.completions = waiting-threads";
  }
}
