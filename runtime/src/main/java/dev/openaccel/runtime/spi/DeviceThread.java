package dev.openaccel.runtime.spi;

import com.typesafe.config.ConfigException;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Adapter;

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
      throw rejected(call, asyncAlternative);
    }
  }

  /**
   * Rejects a blocking call made from a device thread or from any thread of {@code system}'s
   * dispatchers (an actor of the accelerator's own system): blocking there holds up the actors, the
   * device's among them, that the call may be waiting for. This method is thread-safe.
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
   * True when the caller is a thread of one of {@code system}'s dispatchers. Pekko names those
   * {@code <system>-<dispatcher id>-<n>}; the id must name a dispatcher of that system, so a thread
   * of another system (or an application's own pool) whose name merely starts alike is not taken
   * for one. This method is thread-safe.
   */
  public static boolean runsActorsOf(ActorSystem<?> system) {
    String name = Thread.currentThread().getName();
    String prefix = system.name() + "-";
    int counter = name.lastIndexOf('-');
    if (!name.startsWith(prefix) || counter <= prefix.length()) {
      return false; // the common case, a thread of no actor system: no configuration lookup
    }
    String dispatcher = name.substring(prefix.length(), counter);
    try {
      return Adapter.toClassic(system).dispatchers().hasDispatcher(dispatcher);
    } catch (ConfigException notAPath) {
      return false; // a name no configuration path can spell is no dispatcher's
    }
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
