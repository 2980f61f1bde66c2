package dev.openaccel.cluster;

import static dev.openaccel.cluster.TestKernels.intArg;
import static dev.openaccel.cluster.TestKernels.intAt;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.EventHandle;
import dev.openaccel.runtime.Stream;
import dev.openaccel.testkit.NodeFaults;
import dev.openaccel.testkit.StreamHold;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A node that is only unreachable is not given up: with no downing provider, work on a node cut off
 * from the others waits, and completes once the cut heals.
 */
class UnreachableNodeTest {
  private TestCluster cluster;

  @BeforeEach
  void start() {
    cluster =
        TestCluster.start(3, TestCluster.TEST_MODE + "pekko.cluster.downing-provider-class = \"\"");
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  @Test
  void workOnACutOffNodeIsNotGivenUpAndCompletesOnceTheCutHeals() throws Exception {
    ClusterAccelerator zero = cluster.node(0);
    RemoteDevice device = cluster.device(2, 0);
    RemoteStream stream = zero.newStream(device);
    RemoteBuffer data = zero.allocate(device, 16);
    Stream owned = cluster.node(2).accelerator().stream(device.device(), stream.id());
    NodeFaults faults = cluster.faults();
    CompletableFuture<Void> synced;
    try (StreamHold hold = StreamHold.on(owned)) {
      stream.launch("fill", intArg(7), data);
      synced = stream.synchronizeAsync().toCompletableFuture();
      // Returns once node 2 recorded it: the launch and the synchronize before it have arrived,
      // so the cut drops none of them.
      EventHandle arrived = stream.recordEvent();

      faults.isolate(cluster.system(2));
      faults.awaitUnreachable(cluster.system(0), cluster.system(2), TestCluster.WAIT);
      faults.awaitUnreachable(cluster.system(2), cluster.system(0), TestCluster.WAIT);
      assertFalse(synced.isDone(), () -> "given up while only unreachable: " + synced);

      faults.healAll();
      faults.awaitReachable(cluster.system(0), cluster.system(2), TestCluster.WAIT);
      faults.awaitReachable(cluster.system(2), cluster.system(0), TestCluster.WAIT);
      assertFalse(synced.isDone(), () -> "completed while held: " + synced);
      hold.release();
      synced.get(TestCluster.WAIT.toSeconds(), TimeUnit.SECONDS);
      zero.closeEvent(arrived);
    }
    byte[] bytes =
        stream.read(data).toCompletableFuture().get(TestCluster.WAIT.toSeconds(), TimeUnit.SECONDS);
    for (int i = 0; i < 4; i++) {
      assertEquals(7, intAt(bytes, i));
    }
    assertTrue(stream.synchronize(TestCluster.WAIT));
  }
}
