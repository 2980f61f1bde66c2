package dev.openaccel.runtime.internal;

/**
 * A thread of a device dispatcher: it runs OpenAccel's actors and kernels, so it must never block
 * on device work. Internal.
 */
public final class AcceleratorThread extends Thread {

  AcceleratorThread(Runnable body, String name) {
    super(body, name);
    setDaemon(true);
  }

  /**
   * Rejects a blocking call made from a device thread, where it could wait on the very work it
   * holds up.
   *
   * @throws IllegalStateException containing "blocking call on an actor thread"
   */
  public static void checkMayBlock(String call, String asyncAlternative) {
    if (Thread.currentThread() instanceof AcceleratorThread) {
      throw new IllegalStateException(
          "blocking call on an actor thread: "
              + call
              + " was called on "
              + Thread.currentThread().getName()
              + ", which runs OpenAccel's actors and kernels; use "
              + asyncAlternative
              + " instead");
    }
  }
}
