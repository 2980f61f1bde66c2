package dev.openaccel.opencl;

/** {@link ClQueueLockOrderTest} with commands' ends reported by waiting threads. */
class ClQueueLockOrderWaitingThreadsTest extends ClQueueLockOrderTest {
  @Override
  Completions completions() {
    return Completions.WAITING_THREADS;
  }
}
