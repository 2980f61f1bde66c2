package dev.openaccel.cluster;

import static dev.openaccel.cluster.TestKernels.intArg;
import static dev.openaccel.cluster.TestKernels.intAt;
import static dev.openaccel.cluster.TestKernels.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.EventHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A pipeline whose stages run on three nodes, ordered only by events that cross nodes, with its
 * data copied between nodes; and an event handle that travels in an actor message.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CrossNodePipelineTest {
  private static final Duration LONG = Duration.ofSeconds(10);
  private static final int INTS = 1024;
  private TestCluster cluster;
  private ClusterAccelerator driver;

  @BeforeAll
  void start() {
    cluster = TestCluster.start(3);
    driver = cluster.node(0);
  }

  @AfterAll
  void stop() {
    cluster.close();
  }

  @Test
  void stagesOnThreeNodesRunInOrderThroughCrossNodeEventsOnly() throws Exception {
    RemoteDevice first = cluster.device(1, 0);
    RemoteDevice second = cluster.device(2, 1);
    RemoteDevice third = cluster.device(0, 0);
    RemoteStream produce = driver.newStream(first);
    RemoteStream transform = driver.newStream(second);
    RemoteStream finish = driver.newStream(third);
    CountDownLatch gate = TestKernels.gate("pipeline");
    produce.launch("gate", text("pipeline"));
    int batches = 6;
    List<RemoteBuffer> results = new ArrayList<>();
    for (int b = 0; b < batches; b++) {
      RemoteBuffer a = driver.allocate(first, 4L * INTS);
      RemoteBuffer m = driver.allocate(second, 4L * INTS);
      RemoteBuffer z = driver.allocate(third, 4L * INTS);
      produce.launch("fill", intArg(b), a);
      EventHandle produced = produce.recordEvent();
      transform.waitEvent(produced);
      transform.copy(a, m);
      transform.launch("scale", intArg(3), m);
      EventHandle transformed = transform.recordEvent();
      finish.waitEvent(transformed);
      finish.copy(m, z);
      finish.launch("add", intArg(1), z);
      results.add(z);
    }
    assertFalse(finish.synchronize(Duration.ofMillis(200)), "finished before the first stage ran");
    gate.countDown();
    assertTrue(finish.synchronize(LONG));
    for (int b = 0; b < batches; b++) {
      byte[] bytes = finish.read(results.get(b)).toCompletableFuture().get(10, TimeUnit.SECONDS);
      for (int i = 0; i < INTS; i += 97) {
        assertEquals(b * 3 + 1, intAt(bytes, i), "batch " + b + ", int " + i);
      }
    }
  }

  @Test
  void aCopyPushedFromTheSourceNodesStreamIsCompleteForItsNextEvent() throws Exception {
    RemoteDevice source = cluster.device(1, 1);
    RemoteDevice target = cluster.device(2, 0);
    RemoteStream push = driver.newStream(source);
    RemoteStream use = driver.newStream(target);
    int ints = NodeCopy.CHUNK / 2; // two chunks
    RemoteBuffer from = driver.allocate(source, 4L * ints);
    RemoteBuffer to = driver.allocate(target, 4L * ints);
    push.launch("fill", intArg(41), from);
    push.copy(from, to);
    use.waitEvent(push.recordEvent());
    use.launch("add", intArg(1), to);
    byte[] bytes = use.read(to).toCompletableFuture().get(10, TimeUnit.SECONDS);
    assertEquals(42, intAt(bytes, 0));
    assertEquals(42, intAt(bytes, ints - 1));
  }

  @Test
  void aCopyOnAStreamOfAThirdNodeIsRejected() {
    RemoteStream elsewhere = driver.newStream(cluster.device(0, 0));
    RemoteBuffer from = driver.allocate(cluster.device(1, 0), 8);
    RemoteBuffer to = driver.allocate(cluster.device(2, 0), 8);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> elsewhere.copy(from, to));
    assertTrue(e.getMessage().contains("is neither"), e.getMessage());
  }

  @Test
  void aCopyBetweenBuffersOfDifferentSizesIsRejectedNamingBoth() {
    RemoteStream stream = driver.newStream(cluster.device(1, 0));
    RemoteBuffer from = driver.allocate(cluster.device(1, 0), 8);
    RemoteBuffer to = driver.allocate(cluster.device(2, 0), 12);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> stream.copy(from, to));
    assertTrue(e.getMessage().contains("8") && e.getMessage().contains("12"), e.getMessage());
  }

  /** Asks the follower to make a stream of its node wait for the handle's event. */
  record Follow(EventHandle handle, ActorRef<Following> replyTo) implements ClusterMessage {}

  /** The follower's stream now waits; {@code done} is set on its device when the wait is over. */
  record Following(String node) implements ClusterMessage {}

  private static Behavior<Follow> follower(ClusterAccelerator node, CountDownLatch done) {
    return Behaviors.receive(Follow.class)
        .onMessage(
            Follow.class,
            follow -> {
              RemoteStream stream =
                  node.newStream(RemoteDevice.parse(node.selfNode() + "/openreg:0"));
              stream.waitEvent(follow.handle());
              node.accelerator().stream(stream.device().device(), stream.id())
                  .launch("followed", done::countDown);
              follow.replyTo().tell(new Following(node.selfNode()));
              return Behaviors.same();
            })
        .build();
  }

  @Test
  void aHandleSentInAnActorMessageIsFollowedOnTheReceiversNode() throws Exception {
    CountDownLatch done = new CountDownLatch(1);
    ActorRef<Follow> local =
        cluster.system(2).systemActorOf(follower(cluster.node(2), done), "follower", Props.empty());
    String path = ActorRefResolver.get(cluster.system(2)).toSerializationFormat(local);
    ActorRef<Follow> remote = ActorRefResolver.get(cluster.system(1)).resolveActorRef(path);

    RemoteStream owner = cluster.node(1).newStream(cluster.device(1, 0));
    CountDownLatch gate = TestKernels.gate("message");
    owner.launch("gate", text("message"));
    EventHandle handle = owner.recordEvent();
    TestProbe<Following> probe = TestProbe.create(cluster.system(1));
    remote.tell(new Follow(handle, probe.getRef()));
    assertEquals(
        cluster.node(2).selfNode(), probe.expectMessageClass(Following.class, LONG).node());
    assertFalse(done.await(200, TimeUnit.MILLISECONDS), "followed before the owner's record");
    gate.countDown();
    assertTrue(done.await(10, TimeUnit.SECONDS));
  }
}
