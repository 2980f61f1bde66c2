package dev.openaccel.runtime.internal.engine;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Extension;
import org.apache.pekko.actor.typed.ExtensionId;
import org.slf4j.LoggerFactory;

/**
 * What runs once an actor system has terminated, when every actor of its backends has stopped:
 * engines giving device memory back, backends releasing native handles. A Pekko extension, one per
 * system, so that whoever terminates the system can wait for these releases ({@link #await}), as an
 * accelerator's {@code close()} does: it returns only once native memory is free. Internal.
 *
 * <p>Owns: the list of releases registered so far (thread-safe, append-only).
 */
public final class AfterTermination implements Extension {

  /** The extension id. */
  public static final class Id extends ExtensionId<AfterTermination> {
    private static final Id INSTANCE = new Id();

    private Id() {}

    @Override
    public AfterTermination createExtension(ActorSystem<?> system) {
      return new AfterTermination(system);
    }
  }

  private final ActorSystem<?> system;
  private final List<CompletableFuture<Void>> releases = new CopyOnWriteArrayList<>();

  private AfterTermination(ActorSystem<?> system) {
    this.system = system;
  }

  /** {@code system}'s releases, created on first use. */
  public static AfterTermination get(ActorSystem<?> system) {
    return Id.INSTANCE.apply(system);
  }

  /**
   * Runs {@code release} once the system has terminated, on a thread of Pekko's choosing; a failure
   * is logged, never thrown at the terminating caller.
   */
  public void run(String what, Runnable release) {
    releases.add(
        system
            .getWhenTerminated()
            .thenRun(release)
            .exceptionally(
                failure -> {
                  LoggerFactory.getLogger(AfterTermination.class)
                      .warn("releasing {} of actor system {} failed", what, system.name(), failure);
                  return null;
                })
            .toCompletableFuture());
  }

  /**
   * Waits until every release registered so far has run; call after the system terminated.
   *
   * @return false if {@code timeout} passed first
   */
  public boolean await(Duration timeout) {
    try {
      CompletableFuture.allOf(releases.toArray(CompletableFuture[]::new))
          .get(timeout.toNanos(), TimeUnit.NANOSECONDS);
      return true;
    } catch (TimeoutException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } catch (java.util.concurrent.ExecutionException e) {
      return true; // each release logs its own failure and completes normally
    }
  }
}
