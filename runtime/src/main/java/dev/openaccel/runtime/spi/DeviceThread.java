package dev.openaccel.runtime.spi;

import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.dispatch.MonitorableThreadFactory;

/**
 * A thread that runs OpenAccel's device actors and kernels. Blocking calls are rejected on it: a
 * thread that waits for device work could hold up the very work it waits for. Engines create their
 * dispatcher threads as {@code DeviceThread}s, or as subclasses that carry what their engine keeps
 * per thread (a field read is cheaper than a {@link ThreadLocal} on every turn).
 */
public class DeviceThread extends Thread {

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
      throw rejected(call, asyncAlternative);
    }
  }

  /**
   * Rejects a blocking call made from a device thread or from a thread of {@code system}'s default
   * or internal dispatcher (an actor of the accelerator's own system, or Pekko's): blocking there
   * holds up the actors, the device's among them, that the call may be waiting for. A dispatcher
   * set aside for blocking work (Pekko's {@code default-blocking-io-dispatcher}, an application's
   * own) is not rejected. This method is thread-safe.
   *
   * @param call the blocking call, e.g. {@code "Stream.synchronize()"}
   * @param asyncAlternative what to use there instead, e.g. {@code "Stream.synchronizeAsync()"}
   * @throws IllegalStateException containing "blocking call on an actor thread"
   */
  public static void checkMayBlock(ActorSystem<?> system, String call, String asyncAlternative) {
    if (isCurrent() || runsActorsOf(system)) {
      throw rejected(call, asyncAlternative);
    }
  }

  /**
   * True when the caller is a thread of {@code system}'s default or internal dispatcher, where
   * actors run unless told otherwise. The thread is recognised by the uncaught-exception handler
   * that the system's own thread factory gives every thread it makes (one per system), so a thread
   * of another system of the same name, or an application's thread named alike, is not taken for
   * one; then by the dispatcher Pekko names in it ({@code <system>-<dispatcher id>-<n>}). About a
   * nanosecond for a thread of no actor system. This method is thread-safe.
   */
  public static boolean runsActorsOf(ActorSystem<?> system) {
    Thread thread = Thread.currentThread();
    if (!(Adapter.toClassic(system) instanceof ExtendedActorSystem extended)
        || !(extended.threadFactory() instanceof MonitorableThreadFactory factory)
        || thread.getUncaughtExceptionHandler() != factory.exceptionHandler()) {
      return false; // not made by this system's thread factory: no name is looked at
    }
    String name = thread.getName();
    String prefix = factory.name() + "-";
    int counter = name.lastIndexOf('-');
    if (!name.startsWith(prefix) || counter <= prefix.length()) {
      return false;
    }
    String dispatcher = name.substring(prefix.length(), counter);
    // Actors run here by default, and Pekko's own; a dispatcher set aside for blocking work is not.
    return dispatcher.equals("pekko.actor.default-dispatcher")
        || dispatcher.equals("pekko.actor.internal-dispatcher");
  }

  private static IllegalStateException rejected(String call, String asyncAlternative) {
    return new IllegalStateException(
        "blocking call on an actor thread: "
            + call
            + " was called on "
            + Thread.currentThread().getName()
            + ", which runs OpenAccel's actors and kernels; use "
            + asyncAlternative
            + " instead");
  }
}
