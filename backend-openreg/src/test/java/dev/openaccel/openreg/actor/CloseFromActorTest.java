package dev.openaccel.openreg.actor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.openaccel.runtime.Accelerator;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.Test;

/**
 * {@code Accelerator.close()} from an actor of the accelerator's own system starts the shutdown and
 * returns at once, as Pekko's {@code terminate()} does; the system then terminates by itself. From
 * another thread it returns once the system has terminated, interrupting a kernel that still blocks
 * after the grace ({@code openaccel.interrupt-kernels-after}).
 */
class CloseFromActorTest {

  @Test
  void closeFromAnActorOfTheOwnSystemReturnsPromptlyAndTheSystemTerminates() throws Exception {
    Accelerator accelerator =
        Accelerator.start(ConfigFactory.parseString("openaccel.system-name = close-from-actor"));
    CompletableFuture<Long> closed = new CompletableFuture<>();
    ActorRef<String> closer =
        accelerator
            .system()
            .systemActorOf(
                Behaviors.receiveMessage(
                    message -> {
                      long started = System.nanoTime();
                      accelerator.close();
                      closed.complete(System.nanoTime() - started);
                      return Behaviors.same();
                    }),
                "closer",
                org.apache.pekko.actor.typed.Props.empty());
    closer.tell("close");
    long nanos = closed.get(10, TimeUnit.SECONDS); // before: blocked until the 30 s close timeout
    assertTrue(nanos < Duration.ofSeconds(10).toNanos());
    accelerator.system().getWhenTerminated().toCompletableFuture().get(20, TimeUnit.SECONDS);
  }

  @Test
  void closeFromAKernelReturnsPromptlyAndTheSystemTerminates() throws Exception {
    Accelerator accelerator =
        Accelerator.start(ConfigFactory.parseString("openaccel.system-name = close-from-kernel"));
    CompletableFuture<Void> closed = new CompletableFuture<>();
    accelerator
        .newStream()
        .launch(
            "closes its accelerator",
            () -> {
              accelerator.close();
              closed.complete(null);
            });
    closed.get(10, TimeUnit.SECONDS);
    accelerator.system().getWhenTerminated().toCompletableFuture().get(20, TimeUnit.SECONDS);
  }

  @Test
  void closeInterruptsAKernelStillBlockedAfterTheGraceAndReturns() throws Exception {
    Accelerator accelerator =
        Accelerator.start(
            ConfigFactory.parseString(
                "openaccel.system-name = close-blocked, openaccel.interrupt-kernels-after = 200ms"));
    CountDownLatch never = new CountDownLatch(1);
    CountDownLatch started = new CountDownLatch(1);
    CompletableFuture<String> ended = new CompletableFuture<>();
    accelerator
        .newStream()
        .launch(
            "blocked",
            () -> {
              started.countDown();
              try {
                ended.complete(never.await(30, TimeUnit.SECONDS) ? "opened" : "timed out");
              } catch (InterruptedException e) {
                ended.complete("interrupted");
              }
            });
    assertTrue(started.await(10, TimeUnit.SECONDS), "the kernel runs");
    try {
      CompletableFuture.runAsync(accelerator::close).get(20, TimeUnit.SECONDS);
      assertEquals("interrupted", ended.getNow("still running"));
      assertTrue(accelerator.system().getWhenTerminated().toCompletableFuture().isDone());
    } finally {
      never.countDown();
    }
  }

  @Test
  void closeFromAPlainThreadWaitsForTermination() {
    Accelerator accelerator =
        Accelerator.start(ConfigFactory.parseString("openaccel.system-name = close-from-thread"));
    accelerator.close();
    assertTrue(accelerator.system().getWhenTerminated().toCompletableFuture().isDone());
  }
}
