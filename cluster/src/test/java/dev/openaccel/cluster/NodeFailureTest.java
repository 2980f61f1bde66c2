package dev.openaccel.cluster;

import static dev.openaccel.cluster.TestKernels.intArg;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventHandle;
import dev.openaccel.runtime.Stream;
import dev.openaccel.testkit.NodeFaults;
import dev.openaccel.testkit.StreamHold;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Down;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * A node that leaves mid-run, terminated, downed, or cut off from the others until the downing
 * provider downs it: everything the other nodes wait for on it fails promptly with a
 * DeviceExecutionException naming it, and the other nodes keep working.
 */
class NodeFailureTest {
  private static final Duration LONG = Duration.ofSeconds(15);
  private TestCluster cluster;
  private StreamHold hold;

  @BeforeEach
  void start() {
    cluster = TestCluster.start(3, TestCluster.TEST_MODE);
  }

  @AfterEach
  void stop() {
    if (hold != null) {
      hold.release();
    }
    cluster.close();
  }

  /** The waits the other nodes have on node 2 when it goes. */
  private final class Waits {
    final String lost = cluster.node(2).selfNode();
    final CompletableFuture<Void> remoteSync;
    final CompletableFuture<Void> completion;
    final Event afterLocalWait;
    final RemoteStream waitingOnOne;

    Waits() {
      RemoteStream onLost = cluster.node(0).newStream(cluster.device(2, 0));
      // The stream on the lost node is held until the test's end: no thread blocks, so the node
      // can stop at once.
      Accelerator two = cluster.node(2).accelerator();
      hold = StreamHold.on(two.stream(onLost.device().device(), onLost.id()));
      EventHandle handle = onLost.recordEvent();
      remoteSync = onLost.synchronizeAsync().toCompletableFuture();

      Accelerator one = cluster.node(1).accelerator();
      Event opened = one.openEvent(handle);
      completion = opened.completion().toCompletableFuture();
      Stream local = one.newStream(one.currentDevice());
      opened.block(local);
      afterLocalWait = local.recordEvent();

      waitingOnOne = cluster.node(0).newStream(cluster.device(1, 1));
      waitingOnOne.waitEvent(handle);
      waitingOnOne.launch("add", intArg(1), cluster.node(0).allocate(cluster.device(1, 1), 4));
    }

    void assertAllFailNamingTheLostNode() throws Exception {
      assertFailsNaming(() -> remoteSync.get(LONG.toSeconds(), TimeUnit.SECONDS));
      assertFailsNaming(() -> completion.get(LONG.toSeconds(), TimeUnit.SECONDS));
      assertFailsNaming(() -> afterLocalWait.synchronize(LONG));
      assertFailsNaming(() -> waitingOnOne.synchronize(LONG));
    }

    void assertFailsNaming(Executable wait) {
      Throwable failure = assertThrows(Throwable.class, wait);
      if (failure instanceof ExecutionException wrapped) {
        failure = wrapped.getCause();
      }
      assertInstanceOf(DeviceExecutionException.class, failure, failure::toString);
      // As documented: the node's own failure, or what waited on it wrapping that failure.
      assertTrue(
          failure.getMessage().contains("node " + lost + " left the cluster: "),
          failure.getMessage());
    }
  }

  @Test
  void waitersOnATerminatedNodeFailPromptlyNamingIt() throws Exception {
    Waits waits = new Waits();
    cluster.terminate(2);
    waits.assertAllFailNamingTheLostNode();
    assertOthersKeepWorking(waits.lost);
  }

  @Test
  void waitersOnADownedNodeFailPromptlyNamingIt() throws Exception {
    Waits waits = new Waits();
    Cluster.get(cluster.system(0)).manager().tell(new Down(cluster.system(2).address()));
    waits.assertAllFailNamingTheLostNode();
    assertOthersKeepWorking(waits.lost);
  }

  @Test
  void waitersOnANodeCutOffFromTheOthersFailOnceTheDowningProviderDownsIt() throws Exception {
    Waits waits = new Waits();
    NodeFaults faults = cluster.faults();
    faults.isolate(cluster.system(2));
    faults.awaitUnreachable(cluster.system(0), cluster.system(2), TestCluster.WAIT);
    // Split Brain Resolver (keep majority, stable after 2 s) downs node 2, the minority side.
    waits.assertAllFailNamingTheLostNode();
    faults.awaitRemoved(cluster.system(0), cluster.system(2), TestCluster.WAIT);
    faults.awaitRemoved(cluster.system(1), cluster.system(2), TestCluster.WAIT);
    assertOthersKeepWorking(waits.lost);
  }

  private void assertOthersKeepWorking(String lost) {
    ClusterAccelerator zero = cluster.node(0);
    RemoteStream stream = zero.newStream(cluster.device(1, 0));
    RemoteBuffer buffer = zero.allocate(cluster.device(1, 0), 4);
    stream.launch("fill", intArg(1), buffer);
    EventHandle handle = stream.recordEvent();
    Event opened = zero.openEvent(handle);
    assertTrue(opened.synchronize(LONG));
    assertTrue(stream.synchronize(LONG));

    DeviceExecutionException e =
        assertThrows(
            DeviceExecutionException.class,
            () -> zero.newStream(RemoteDevice.parse(lost + "/openreg:0")));
    assertTrue(e.getMessage().contains(lost), e.getMessage());
  }
}
