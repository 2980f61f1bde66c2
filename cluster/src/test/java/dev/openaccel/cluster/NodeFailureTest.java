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
 * A node that leaves mid-run, terminated or downed: everything the other nodes wait for on it fails
 * promptly with a DeviceExecutionException naming it, and the other nodes keep working.
 */
class NodeFailureTest {
  private static final Duration LONG = Duration.ofSeconds(15);
  private TestCluster cluster;
  private final CompletableFuture<Void> never = new CompletableFuture<>();

  @BeforeEach
  void start() {
    cluster = TestCluster.start(3);
  }

  @AfterEach
  void stop() {
    never.complete(null);
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
      // The stream on the lost node parks on a signal that only the test's end gives: no thread
      // blocks, so the node can stop at once.
      Accelerator two = cluster.node(2).accelerator();
      Stream parked = two.stream(onLost.device().device(), onLost.id());
      parked.waitFor(never);
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
      assertTrue(failure.getMessage().contains(lost), failure.getMessage());
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
