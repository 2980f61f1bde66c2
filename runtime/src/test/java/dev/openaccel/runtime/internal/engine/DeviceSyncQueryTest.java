package dev.openaccel.runtime.internal.engine;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.EngineSpec;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The device actor's synchronize, scatter-gather with a deadline: it replies once every stream's
 * marker completed, aggregates failures, and fails naming the streams still busy at the deadline.
 */
class DeviceSyncQueryTest {
  private static final ActorTestKit KIT = ActorTestKit.create();
  private static final DeviceType TYPE = DeviceType.of("syncquery");
  private static final ActorEngine ENGINE =
      Engines.start(KIT.system(), EngineSpec.builder(TYPE).build());
  private static final ActorRef<DeviceActor.Command> DEVICE = KIT.spawn(DeviceActor.create());

  @AfterAll
  static void stop() {
    KIT.shutdownTestKit();
  }

  private static Stream stream() {
    return ENGINE.getNewStream(Device.of(TYPE, 0), 0);
  }

  private static CompletableFuture<Void> synchronize(
      Duration deadline, DeviceSyncQuery.Member... members) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    DEVICE.tell(new DeviceActor.Synchronize(List.of(members), deadline, done));
    return done;
  }

  @Test
  void repliesOnceEveryStreamsMarkerCompleted() throws Exception {
    CompletableFuture<Void> first = new CompletableFuture<>();
    CompletableFuture<Void> second = new CompletableFuture<>();
    CompletableFuture<Void> done =
        synchronize(
            Duration.ofSeconds(30),
            new DeviceSyncQuery.Member(stream(), first),
            new DeviceSyncQuery.Member(stream(), second));
    first.complete(null);
    assertThrows(TimeoutException.class, () -> done.get(100, TimeUnit.MILLISECONDS));
    second.complete(null);
    done.get(10, TimeUnit.SECONDS);
  }

  @Test
  void aggregatesTheFailuresOfEveryStream() {
    CompletableFuture<Void> done =
        synchronize(
            Duration.ofSeconds(30),
            new DeviceSyncQuery.Member(
                stream(), CompletableFuture.failedFuture(new DeviceExecutionException("one"))),
            new DeviceSyncQuery.Member(
                stream(), CompletableFuture.failedFuture(new DeviceExecutionException("two"))));
    ExecutionException e =
        assertThrows(ExecutionException.class, () -> done.get(10, TimeUnit.SECONDS));
    String messages =
        e.getCause().getMessage() + " " + e.getCause().getSuppressed()[0].getMessage();
    assertTrue(messages.contains("one") && messages.contains("two"), messages);
  }

  @Test
  void failsNamingTheBusyStreamsWhenTheDeadlinePasses() {
    Stream busy = stream();
    CompletableFuture<Void> done =
        synchronize(
            Duration.ofMillis(200),
            new DeviceSyncQuery.Member(stream(), CompletableFuture.completedFuture(null)),
            new DeviceSyncQuery.Member(busy, new CompletableFuture<>()));
    ExecutionException e =
        assertThrows(ExecutionException.class, () -> done.get(10, TimeUnit.SECONDS));
    assertTrue(e.getCause() instanceof DeviceExecutionException);
    assertTrue(e.getCause().getMessage().contains("did not complete within"));
    assertTrue(e.getCause().getMessage().contains(busy.toString()), e.getCause().getMessage());
  }
}
