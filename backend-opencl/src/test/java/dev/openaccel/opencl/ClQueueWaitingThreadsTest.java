package dev.openaccel.opencl;

/** {@link ClQueueTest} with commands' ends reported by waiting threads instead of callbacks. */
class ClQueueWaitingThreadsTest extends ClQueueTest {
  @Override
  Completions completions() {
    return Completions.WAITING_THREADS;
  }
}
