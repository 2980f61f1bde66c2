package dev.openaccel.openreg.actor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceContext;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.actor.DeviceBehaviors;
import dev.openaccel.runtime.actor.DeviceScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.DeadLetter;
import org.apache.pekko.actor.testkit.typed.annotations.JUnit5TestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJUnit5Extension;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.eventstream.EventStream;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/** Each actor has its own device context, installed only while it handles a message. */
@ExtendWith(TestKitJUnit5Extension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DeviceBehaviorsTest {
  private static final DeviceType OPENREG = DeviceType.of("openreg");
  private static final Duration WAIT = Duration.ofSeconds(10);

  @JUnit5TestKit
  public ActorTestKit testKit =
      ActorTestKit.create(
          ConfigFactory.parseString(
                  "one-thread { type = Dispatcher, executor = thread-pool-executor,"
                      + " thread-pool-executor.fixed-pool-size = 1, throughput = 1 }")
              .withFallback(ConfigFactory.load("application-test")));

  /** What an actor saw: the device current when the message arrived, and the thread it ran on. */
  record Seen(int actor, int deviceAtStart, String thread) {}

  sealed interface Command {}

  record Switch(int device, ActorRef<Seen> replyTo) implements Command {}

  record LeaveGuardOpen(int device, ActorRef<Seen> replyTo) implements Command {}

  record Scoped(DeviceContext deviceContext, ActorRef<Seen> replyTo)
      implements Command, DeviceScoped {}

  record Capture(ActorRef<DeviceContext> replyTo) implements Command {}

  private Behavior<Command> switcher(int id) {
    return DeviceBehaviors.withDeviceContext(
        Behaviors.setup(
            context -> {
              Accelerator accelerator = Accelerator.get(context.getSystem());
              return Behaviors.receive(Command.class)
                  .onMessage(
                      Switch.class,
                      m -> {
                        reply(accelerator, id, m.replyTo());
                        accelerator.setDeviceIndex(m.device());
                        return Behaviors.same();
                      })
                  .onMessage(
                      LeaveGuardOpen.class,
                      m -> {
                        reply(accelerator, id, m.replyTo());
                        accelerator.deviceGuard(m.device()); // deliberately not closed
                        return Behaviors.same();
                      })
                  .onMessage(
                      Scoped.class,
                      m -> {
                        reply(accelerator, id, m.replyTo());
                        accelerator.setDeviceIndex(0); // discarded with the scoped context
                        return Behaviors.same();
                      })
                  .onMessage(
                      Capture.class,
                      m -> {
                        m.replyTo().tell(accelerator.captureContext());
                        return Behaviors.same();
                      })
                  .build();
            }));
  }

  /** The event stream subscribes asynchronously: send markers until one arrives. */
  private void awaitSubscribed(TestProbe<DeadLetter> dead) {
    dead.awaitAssert(
        WAIT,
        () -> {
          testKit.system().deadLetters().tell("subscribed?");
          assertEquals("subscribed?", dead.receiveMessage(Duration.ofMillis(100)).message());
          return null;
        });
  }

  private static void reply(Accelerator accelerator, int id, ActorRef<Seen> replyTo) {
    replyTo.tell(new Seen(id, accelerator.currentDeviceIndex(), Thread.currentThread().getName()));
  }

  @Test
  void actorsSharingOneThreadNeverSeeEachOthersDevice() {
    int actors = 40;
    List<ActorRef<Command>> refs = new ArrayList<>();
    for (int i = 0; i < actors; i++) {
      refs.add(testKit.spawn(switcher(i), DispatcherSelector.fromConfig("one-thread")));
    }
    TestProbe<Seen> probe = testKit.createTestProbe();
    int[] expected = new int[actors];
    String thread = null;
    for (int round = 0; round < 25; round++) {
      for (int i = 0; i < actors; i++) {
        int next = (i + round) % 2;
        refs.get(i).tell(new Switch(next, probe.ref()));
        Seen seen = probe.receiveMessage(WAIT);
        assertEquals(i, seen.actor());
        assertEquals(expected[i], seen.deviceAtStart(), "actor " + i + " in round " + round);
        thread = thread == null ? seen.thread() : thread;
        assertEquals(thread, seen.thread(), "all actors run on the one dispatcher thread");
        expected[i] = next;
      }
    }
    assertEquals(
        0, Accelerator.get(testKit.system()).currentDeviceIndex(), "test thread untouched");
  }

  @Test
  void aGuardLeftOpenIsClosedWhenTheHandlerReturns() {
    ActorRef<Command> actor = testKit.spawn(switcher(0));
    TestProbe<Seen> probe = testKit.createTestProbe();
    actor.tell(new LeaveGuardOpen(1, probe.ref()));
    assertEquals(0, probe.receiveMessage(WAIT).deviceAtStart());
    actor.tell(new Switch(0, probe.ref()));
    assertEquals(0, probe.receiveMessage(WAIT).deviceAtStart(), "the guard restored device 0");
  }

  @Test
  void aScopedMessageIsHandledUnderItsOwnContextOnly() {
    ActorRef<Command> actor = testKit.spawn(switcher(0));
    TestProbe<Seen> probe = testKit.createTestProbe();
    DeviceContext onDevice1 = DeviceContext.empty().withDevice(Device.of(OPENREG, 1));
    actor.tell(new Scoped(onDevice1, probe.ref()));
    assertEquals(1, probe.receiveMessage(WAIT).deviceAtStart());
    actor.tell(new Switch(1, probe.ref()));
    assertEquals(0, probe.receiveMessage(WAIT).deviceAtStart(), "own context unchanged");
    actor.tell(new Switch(0, probe.ref()));
    assertEquals(1, probe.receiveMessage(WAIT).deviceAtStart());
  }

  @Test
  void aScopedMessageWithAnInvalidContextIsRejectedAndTheActorKeepsWorking() {
    ActorRef<Command> actor = testKit.spawn(switcher(0));
    TestProbe<Seen> probe = testKit.createTestProbe();
    TestProbe<DeadLetter> dead = testKit.createTestProbe();
    testKit.system().eventStream().tell(new EventStream.Subscribe<>(DeadLetter.class, dead.ref()));
    awaitSubscribed(dead);
    DeviceContext outOfRange = DeviceContext.empty().withDevice(Device.of(OPENREG, 7));
    DeviceContext unknownType = DeviceContext.empty().withDevice(Device.parse("cuda:1"));
    actor.tell(new Scoped(outOfRange, probe.ref()));
    actor.tell(new Scoped(unknownType, probe.ref()));
    assertTrue(dead.receiveMessage(WAIT).message() instanceof Scoped);
    assertTrue(dead.receiveMessage(WAIT).message() instanceof Scoped);
    actor.tell(new Switch(1, probe.ref()));
    assertEquals(0, probe.receiveMessage(WAIT).deviceAtStart(), "the actor still answers");
  }

  @Test
  void aCapturedContextCarriesIntoAFuture() throws Exception {
    ActorRef<Command> actor = testKit.spawn(switcher(0));
    TestProbe<Seen> seen = testKit.createTestProbe();
    TestProbe<DeviceContext> contexts = testKit.createTestProbe();
    actor.tell(new Switch(1, seen.ref()));
    seen.receiveMessage(WAIT);
    actor.tell(new Capture(contexts.ref()));
    DeviceContext captured = contexts.receiveMessage(WAIT);
    Accelerator accelerator = Accelerator.get(testKit.system());
    int inFuture =
        CompletableFuture.supplyAsync(
                () -> {
                  int[] device = new int[1];
                  accelerator.runWith(captured, () -> device[0] = accelerator.currentDeviceIndex());
                  return device[0];
                })
            .get(10, TimeUnit.SECONDS);
    assertEquals(1, inFuture);
    assertEquals(0, accelerator.currentDeviceIndex());
  }
}
