package dev.openaccel.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.EventHandle;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The gateway serves members only; buffers and events belong to the node that created them; what a
 * node that leaves owned is released; events recorded and closed leave nothing behind.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AccessControlTest {
  private TestCluster cluster;

  @BeforeAll
  void start() {
    cluster = TestCluster.start(3);
  }

  @AfterAll
  void stop() {
    cluster.close();
  }

  @Test
  void bytesForANodeOutsideTheClusterFailAtOnceAndStartNoSender() throws Exception {
    String stranger = "pekko://openaccel@127.0.0.1:9";
    Bulk bulk = cluster.node(0).bulk();
    CompletableFuture<Void> sent =
        bulk.send(stranger, bulk.pushId(), 0, BulkSource.of(new byte[1024])).toCompletableFuture();
    ExecutionException failure =
        assertThrows(ExecutionException.class, () -> sent.get(10, TimeUnit.SECONDS));
    String message = failure.getCause().getMessage();
    assertTrue(message.contains(stranger) && message.contains("not a member"), message);
    assertFalse(bulk.sendsTo(stranger), "a sender was started for a node outside the cluster");
  }

  @Test
  void anActorSystemOutsideTheClusterIsRefusedAtTheGateway() {
    ActorSystem<Void> outsider =
        ActorSystem.create(
            Behaviors.empty(),
            "openaccel",
            ConfigFactory.parseString(
                    """
                    pekko.actor.provider = remote
                    pekko.remote.artery.canonical.hostname = "127.0.0.1"
                    pekko.remote.artery.canonical.port = 0
                    pekko.loglevel = WARNING
                    """)
                .withFallback(ConfigFactory.load()));
    try {
      ActorRef<GatewayProtocol.Command> gateway =
          ActorRefResolver.get(outsider)
              .resolveActorRef(cluster.node(0).selfNode() + "/system/" + NodeGateway.NAME);
      TestProbe<GatewayProtocol.Reply> probe = TestProbe.create(outsider);
      Device device = cluster.device(0, 0).device();
      gateway.tell(new GatewayProtocol.Describe(1, probe.getRef()));
      gateway.tell(new GatewayProtocol.Allocate(2, device, 1024, probe.getRef()));
      gateway.tell(new GatewayProtocol.Free(3, 1, probe.getRef()));
      for (int request = 1; request <= 3; request++) {
        var refused =
            assertInstanceOf(
                GatewayProtocol.Failed.class, probe.receiveMessage(Duration.ofSeconds(10)));
        assertEquals(request, refused.requestId());
        assertTrue(refused.message().contains("is not a member"), refused.message());
        assertTrue(refused.message().contains(outsider.address().toString()), refused.message());
      }
    } finally {
      outsider.terminate();
      assertDone(outsider);
    }
  }

  @Test
  void onlyTheOwnerFreesABufferOthersMayUseIt() throws Exception {
    RemoteDevice device = cluster.device(2, 0);
    RemoteBuffer buffer = cluster.node(1).allocate(device, 64);
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> cluster.node(0).free(buffer));
    assertTrue(
        e.getMessage().contains("belongs to node " + cluster.node(1).selfNode()), e.getMessage());
    RemoteStream stream = cluster.node(0).newStream(device);
    stream.write(new byte[64], buffer);
    assertEquals(64, stream.read(buffer).toCompletableFuture().get(10, TimeUnit.SECONDS).length);
    cluster.node(1).free(buffer);
    cluster.node(1).free(buffer); // idempotent
  }

  @Test
  void recordedAndClosedEventsLeaveNothingBehind() {
    ClusterAccelerator zero = cluster.node(0);
    RemoteStream local = zero.newStream(cluster.device(0, 0));
    RemoteStream remote = zero.newStream(cluster.device(1, 0));
    int before = zero.liveResources() + cluster.node(1).liveResources();
    cycles(zero, local, 20_000);
    long baseline = usedHeapAfterGc();
    cycles(zero, local, 600_000);
    cycles(zero, remote, 2_000);
    long grown = usedHeapAfterGc() - baseline;
    assertTrue(grown < 16L << 20, "heap grew by " + grown + " bytes over 602 000 cycles");
    assertEquals(before, zero.liveResources() + cluster.node(1).liveResources());
  }

  private static void cycles(ClusterAccelerator node, RemoteStream stream, int count) {
    for (int i = 0; i < count; i++) {
      EventHandle handle = stream.recordEvent();
      node.closeEvent(handle);
    }
  }

  private static long usedHeapAfterGc() {
    Runtime runtime = Runtime.getRuntime();
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return runtime.totalMemory() - runtime.freeMemory();
  }

  @Test
  @Order(Integer.MAX_VALUE) // node 1 leaves: the other tests use it first
  void buffersOfANodeThatLeavesAreReleased() {
    ClusterAccelerator owner = cluster.node(1);
    ClusterAccelerator host = cluster.node(2);
    Device device = cluster.device(2, 1).device();
    long before = host.accelerator().memoryStats(device).allocated();
    int live = host.liveResources();
    owner.allocate(cluster.device(2, 1), 1 << 20);
    owner.newStream(cluster.device(2, 1)).recordEvent();
    assertEquals(live + 2, host.liveResources());
    cluster.terminate(1);
    awaitTrue(Duration.ofSeconds(30), () -> host.liveResources() == live);
    awaitTrue(
        Duration.ofSeconds(10), () -> host.accelerator().memoryStats(device).allocated() == before);
  }

  /** Waits, bounded, until {@code condition} holds; fails naming the limit otherwise. */
  private static void awaitTrue(Duration limit, BooleanSupplier condition) {
    long deadline = System.nanoTime() + limit.toNanos();
    while (!condition.getAsBoolean()) {
      assertTrue(System.nanoTime() < deadline, "condition not met within " + limit);
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
    }
  }

  private static void assertDone(ActorSystem<Void> system) {
    try {
      system.getWhenTerminated().toCompletableFuture().get(20, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError(system.address() + " did not terminate", e);
    }
  }
}
