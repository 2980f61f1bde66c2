package dev.openaccel.runtime.spi;

/**
 * A thread that runs OpenAccel's device actors and kernels. Blocking calls are rejected on it: a
 * thread that waits for device work could hold up the very work it waits for. Engines create their
 * dispatcher threads as {@code DeviceThread}s.
 */
public final class DeviceThread extends Thread {

  /** A daemon device thread named {@code name} that runs {@code body}. */
  public DeviceThread(Runnable body, String name) {
    super(body, name);
    setDaemon(true);
  }

  /** True when the caller runs on a device thread. This method is thread-safe. */
  public static boolean isCurrent() {
    return Thread.currentThread() instanceof DeviceThread;
  }

  /**
   * Rejects a blocking call made from a device thread.
   *
   * @param call the blocking call, e.g. {@code "Stream.synchronize()"}
   * @param asyncAlternative what to use there instead, e.g. {@code "Stream.synchronizeAsync()"}
   * @throws IllegalStateException containing "blocking call on an actor thread"
   */
  public static void checkMayBlock(String call, String asyncAlternative) {
    if (isCurrent()) {
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
