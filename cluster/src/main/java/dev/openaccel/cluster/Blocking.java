package dev.openaccel.cluster;

import dev.openaccel.runtime.spi.DeviceThread;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.pekko.actor.typed.ActorSystem;

/** Host-side waits on stages, with the runtime's rules for blocking calls. Internal. */
final class Blocking {
  private Blocking() {}

  /**
   * The stage's value; its failure is thrown as the unchecked exception it carries.
   *
   * @throws IllegalStateException containing "blocking call on an actor thread" on a device thread
   */
  static <T> T await(CompletionStage<T> stage, String call, String alternative) {
    DeviceThread.checkMayBlock(call, alternative);
    return get(stage, call);
  }

  /**
   * Like {@link #await(CompletionStage, String, String)} for a synchronize: also rejected on the
   * default and internal dispatchers of {@code system}, the node's (its links and gateway run
   * there, so a wait there can hold up its own answer).
   */
  static <T> T await(
      ActorSystem<?> system, CompletionStage<T> stage, String call, String alternative) {
    DeviceThread.checkMayBlock(system, call, alternative);
    return get(stage, call);
  }

  private static <T> T get(CompletionStage<T> stage, String call) {
    try {
      return stage.toCompletableFuture().get();
    } catch (ExecutionException e) {
      throw Failures.rethrow(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted in " + call, e);
    }
  }

  /**
   * Like {@link #await(ActorSystem, CompletionStage, String, String)}, but false if {@code timeout}
   * passes first.
   */
  static boolean await(
      ActorSystem<?> system,
      CompletionStage<?> stage,
      Duration timeout,
      String call,
      String alternative) {
    DeviceThread.checkMayBlock(system, call, alternative);
    try {
      stage.toCompletableFuture().get(timeout.toNanos(), TimeUnit.NANOSECONDS);
      return true;
    } catch (TimeoutException e) {
      return false;
    } catch (ExecutionException e) {
      throw Failures.rethrow(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted in " + call, e);
    }
  }
}
