package dev.openaccel.runtime.internal.engine;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorSystem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Unwedges a shutdown: the actor system terminates only once every stream's actor has stopped, and
 * an actor cannot stop while its Java kernel runs. So once the system has been shutting down for
 * {@code openaccel.interrupt-kernels-after}, the Java kernels still running are interrupted, as
 * {@code ExecutorService.shutdownNow} would: a kernel blocked in an interruptible call (a latch, a
 * sleep, a queue) then fails with its {@code InterruptedException}, and the stream goes on to stop.
 * Each kernel is interrupted once; kernels that start later are interrupted by the next round,
 * every {@value #ROUND_MILLIS} ms, until the system has terminated or {@value #GIVE_UP_SECONDS} s
 * have passed. Runs on a daemon thread of its own. Internal.
 *
 * <p>Owns: nothing mutable; the kernels' interrupt state is each stream's {@link Kernels}.
 */
final class KernelInterrupter {
  private static final Logger log = LoggerFactory.getLogger(KernelInterrupter.class);
  private static final long ROUND_MILLIS = 50;
  private static final long GIVE_UP_SECONDS = 60;

  private KernelInterrupter() {}

  /**
   * Starts watching {@code system}'s termination: after {@code grace}, interrupts the kernels of
   * {@code streams} in rounds until it has terminated.
   */
  static void start(ActorSystem<?> system, Duration grace, Supplier<List<StreamQueue>> streams) {
    CompletableFuture<?> terminated = system.getWhenTerminated().toCompletableFuture();
    Thread watcher =
        new Thread(
            () -> {
              if (await(terminated, grace.toMillis())) {
                return;
              }
              long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(GIVE_UP_SECONDS);
              do {
                for (StreamQueue stream : streams.get()) {
                  String kernel = stream.interruptKernel();
                  if (kernel != null) {
                    log.warn(
                        "interrupted kernel '{}' on {}: actor system '{}' has been shutting down"
                            + " for more than {} ms",
                        kernel,
                        stream,
                        system.name(),
                        grace.toMillis());
                  }
                }
              } while (!await(terminated, ROUND_MILLIS) && System.nanoTime() < until);
            },
            system.name() + "-openaccel-kernel-interrupter");
    watcher.setDaemon(true);
    watcher.start();
  }

  /** Whether {@code terminated} completed within {@code millis}. */
  private static boolean await(CompletableFuture<?> terminated, long millis) {
    try {
      terminated.get(millis, TimeUnit.MILLISECONDS);
      return true;
    } catch (java.util.concurrent.TimeoutException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return true; // give up watching
    } catch (java.util.concurrent.ExecutionException e) {
      return true;
    }
  }
}
