package dev.openaccel.openreg.actor;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.openaccel.openreg.testing.SharedAcceleratorTest;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.Stream;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.Test;

/**
 * Blocking calls from an actor of the accelerator's own actor system (a dispatcher thread, not only
 * a device thread) are rejected with {@link IllegalStateException} containing "blocking call on an
 * actor thread" and naming the async form; from an actor of another system they wait as usual.
 */
class ActorThreadBlockingCallTest extends SharedAcceleratorTest {
  private static final Device D0 = Device.parse("openreg:0");
  private static final String PHRASE = "blocking call on an actor thread";

  @Override
  protected Config config() {
    return ConfigFactory.parseString("openaccel.system-name = actor-blocking");
  }

  /** Runs {@code call} in a new actor of {@code system}; returns what it threw, or null. */
  private static Throwable thrownInAnActorOf(ActorSystem<?> system, String name, Runnable call)
      throws Exception {
    CompletableFuture<Throwable> thrown = new CompletableFuture<>();
    ActorRef<String> caller =
        system.systemActorOf(
            Behaviors.receiveMessage(
                message -> {
                  try {
                    call.run();
                    thrown.complete(null);
                  } catch (RuntimeException e) {
                    thrown.complete(e);
                  }
                  return Behaviors.stopped();
                }),
            name,
            Props.empty());
    caller.tell("call");
    return thrown.get(10, TimeUnit.SECONDS);
  }

  private void assertRejected(String name, Runnable call, String hint) throws Exception {
    Throwable e = thrownInAnActorOf(acc.system(), name, call);
    assertNotNull(e, name + ": the blocking call in an actor of the own system did not throw");
    assertInstanceOf(IllegalStateException.class, e);
    assertTrue(e.getMessage().contains(PHRASE), e.getMessage());
    assertTrue(e.getMessage().contains("use " + hint), e.getMessage());
  }

  @Test
  void streamSynchronizeInAnActorOfTheOwnSystemIsRejected() throws Exception {
    Stream stream = acc.newStream(D0);
    assertRejected("stream-sync", stream::synchronize, "Stream.synchronizeAsync()");
  }

  @Test
  void eventSynchronizeInAnActorOfTheOwnSystemIsRejected() throws Exception {
    Event recorded = acc.newStream(D0).recordEvent();
    assertRejected("event-sync", recorded::synchronize, "Event.completion()");
    assertRejected(
        "event-sync-timeout",
        () -> recorded.synchronize(Duration.ofSeconds(1)),
        "Event.completion()");
  }

  @Test
  void acceleratorSynchronizeInAnActorOfTheOwnSystemIsRejected() throws Exception {
    assertRejected(
        "device-sync", () -> acc.synchronize(D0), "Accelerator.synchronizeAsync(device)");
  }

  @Test
  void theAsyncFormsWorkInAnActorOfTheOwnSystem() throws Exception {
    Stream stream = acc.newStream(D0);
    stream.launch("work", () -> {});
    CompletableFuture<Void> synced = new CompletableFuture<>();
    assertNull(
        thrownInAnActorOf(
            acc.system(),
            "async-sync",
            () ->
                stream.synchronizeAsync().whenComplete((done, failure) -> synced.complete(null))));
    synced.get(10, TimeUnit.SECONDS);
  }

  @Test
  void blockingCallsInAnActorOfAnotherSystemWait() throws Exception {
    Stream stream = acc.newStream(D0);
    stream.launch("work", () -> {});
    ActorSystem<Void> other =
        ActorSystem.create(
            Behaviors.empty(),
            "actor-blocking-other",
            ConfigFactory.parseString("openaccel.disabled-backends = [openreg]")
                .withFallback(ConfigFactory.load()));
    try {
      assertNull(
          thrownInAnActorOf(
              other,
              "elsewhere",
              () -> {
                stream.synchronize();
                stream.recordEvent().synchronize();
                acc.synchronize(D0);
              }));
    } finally {
      other.terminate();
      other.getWhenTerminated().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void blockingCallsOnTheOwnSystemsBlockingDispatcherWait() throws Exception {
    Stream stream = acc.newStream(D0);
    stream.launch("work", () -> {});
    CompletableFuture<Throwable> thrown = new CompletableFuture<>();
    acc.system()
        .dispatchers()
        .lookup(DispatcherSelector.blocking()) // where Pekko puts blocking calls
        .execute(
            () -> {
              try {
                stream.synchronize();
                thrown.complete(null);
              } catch (RuntimeException e) {
                thrown.complete(e);
              }
            });
    assertNull(thrown.get(10, TimeUnit.SECONDS));
  }

  @Test
  void blockingCallsInAnActorOfAnotherSystemOfTheSameNameWait() throws Exception {
    Stream stream = acc.newStream(D0);
    stream.launch("work", () -> {});
    ActorSystem<Void> namesake =
        ActorSystem.create(
            Behaviors.empty(),
            acc.system().name(),
            ConfigFactory.parseString("openaccel.disabled-backends = [openreg]")
                .withFallback(ConfigFactory.load()));
    try {
      assertNull(thrownInAnActorOf(namesake, "namesake", stream::synchronize));
    } finally {
      namesake.terminate();
      namesake.getWhenTerminated().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
  }
}
