package dev.openaccel.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The threads a test started and left running. A thread counts when it is alive at the check, was
 * not alive when the test began, and is neither one of the accelerator's (its actor system names
 * each of its threads, device threads included, with the system's name and a dash) nor one of the
 * JVM's own that start on demand (the common fork-join pool, reference handling, the flight
 * recorder, attach and process-reaper threads) nor JUnit's (the watcher that its {@code @Timeout}
 * starts with the first timed test and keeps to the end of the run) nor a device driver's own
 * thread that a backend named {@code openaccel-driver-...} (OpenCL's runtime threads that call
 * back). Before a thread is reported it is joined for what is left of the check's deadline, so one
 * that is just ending is not reported.
 *
 * <p>Owns: {@code before}, an immutable snapshot taken on the test's thread.
 */
final class LeftThreads {
  private static final List<String> STARTED_ON_DEMAND =
      List.of(
          "ForkJoinPool.commonPool-",
          "Common-Cleaner",
          "Reference Handler",
          "Finalizer",
          "Signal Dispatcher",
          "Notification Thread",
          "Attach Listener",
          "process reaper",
          "JFR ",
          "junit-jupiter-timeout-watcher",
          "openaccel-driver-");

  private final Set<Thread> before;

  private LeftThreads(Set<Thread> before) {
    this.before = before;
  }

  /** The threads alive now, to compare with at the check. */
  static LeftThreads snapshot() {
    return new LeftThreads(Set.copyOf(Thread.getAllStackTraces().keySet()));
  }

  /**
   * Describes each thread started since the snapshot that is still alive at {@code deadlineNanos}
   * ({@link System#nanoTime()}), other than the threads of the actor system {@code systemName}.
   *
   * @throws InterruptedException if the calling thread is interrupted while it joins one
   */
  List<String> leftAt(String systemName, long deadlineNanos) throws InterruptedException {
    List<String> left = new ArrayList<>();
    for (Thread thread : Thread.getAllStackTraces().keySet()) {
      if (before.contains(thread) || ownedElsewhere(thread, systemName)) {
        continue;
      }
      long remainingMillis = Math.max(0, (deadlineNanos - System.nanoTime()) / 1_000_000);
      if (remainingMillis > 0) {
        thread.join(remainingMillis);
      }
      if (thread.isAlive()) {
        left.add("thread '" + thread.getName() + "' (" + thread.getState() + ") is still running");
      }
    }
    return left;
  }

  private static boolean ownedElsewhere(Thread thread, String systemName) {
    String name = thread.getName();
    return name.startsWith(systemName + "-")
        || thread == Thread.currentThread()
        || STARTED_ON_DEMAND.stream().anyMatch(name::startsWith);
  }
}
