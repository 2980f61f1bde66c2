package dev.openaccel.samples.cli;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.slf4j.LoggerFactory;

/**
 * Starts and stops the actor systems that samples bring along; the accelerator is then {@code
 * Accelerator.get(system)}.
 */
public final class ActorSystems {
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

  private ActorSystems() {}

  /** Starts a system named {@code name} whose guardian is {@code guardian}. */
  public static <T> ActorSystem<T> start(Behavior<T> guardian, String name) {
    return start(guardian, name, ConfigFactory.load());
  }

  /** Starts a system named {@code name} whose guardian is {@code guardian}, with {@code config}. */
  public static <T> ActorSystem<T> start(Behavior<T> guardian, String name, Config config) {
    // Set up logging on this thread first: otherwise Pekko's logger and the accelerator's start it
    // from two threads at once, and SLF4J warns that it replayed a call.
    LoggerFactory.getILoggerFactory();
    return ActorSystem.create(guardian, name, config);
  }

  /**
   * Terminates {@code system} and waits for it.
   *
   * @throws IllegalStateException if it does not terminate within 30 seconds
   */
  public static void stop(ActorSystem<?> system) throws InterruptedException {
    system.terminate();
    try {
      system
          .getWhenTerminated()
          .toCompletableFuture()
          .get(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("actor system " + system.name() + " did not terminate", e);
    }
  }
}
