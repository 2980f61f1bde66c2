package dev.openaccel.cluster;

import static dev.openaccel.cluster.TestKernels.intArg;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.EventHandle;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A wait on an event of another node captures the record current at its owner when the call
 * returns, and a wait on a node outside the cluster fails promptly, naming it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ExactWaitTest {
  private static final Duration LONG = Duration.ofSeconds(60);
  private TestCluster cluster;

  @BeforeAll
  void start() {
    cluster = TestCluster.start(3);
  }

  @AfterAll
  void stop() {
    cluster.close();
  }

  /**
   * Node 1 fills two buffers in turn, node 2 pulls and checks each, both reusing one "filled" and
   * one "drained" event per buffer, driven from node 0. A wait that bound to a later record would
   * stall (the consumer waits for a fill that waits for the consumer) or check the wrong batch.
   */
  @Test
  void doubleBufferingWithReRecordedEventsRuns400BatchesInOrder() {
    ClusterAccelerator driver = cluster.node(0);
    RemoteStream producer = driver.newStream(cluster.device(1, 0));
    RemoteStream consumer = driver.newStream(cluster.device(2, 0));
    RemoteBuffer[] sent = new RemoteBuffer[2];
    RemoteBuffer[] received = new RemoteBuffer[2];
    EventHandle[] filled = new EventHandle[2];
    EventHandle[] drained = new EventHandle[2];
    for (int k = 0; k < 2; k++) {
      sent[k] = driver.allocate(cluster.device(1, 0), 4096);
      received[k] = driver.allocate(cluster.device(2, 0), 4096);
    }
    for (int i = 0; i < 400; i++) {
      int k = i % 2;
      if (drained[k] != null) {
        producer.waitEvent(drained[k]);
      }
      producer.launch("fill", intArg(i), sent[k]);
      filled[k] = filled[k] == null ? producer.recordEvent() : producer.recordEvent(filled[k]);
      consumer.waitEvent(filled[k]);
      consumer.copy(sent[k], received[k]);
      consumer.launch("expect", intArg(i), received[k]);
      drained[k] = drained[k] == null ? consumer.recordEvent() : consumer.recordEvent(drained[k]);
    }
    assertTrue(consumer.synchronize(LONG), "the consumer stalled");
    assertTrue(producer.synchronize(LONG), "the producer stalled");
    for (int k = 0; k < 2; k++) {
      driver.closeEvent(filled[k]);
      driver.closeEvent(drained[k]);
    }
  }

  @Test
  void aWaitOnAHandleOfANonMemberFailsPromptlyNamingTheNode() {
    String stranger = "pekko://openaccel@127.0.0.1:1";
    EventHandle handle = new EventHandle(DeviceType.of("openreg"), 0, 5, stranger);
    RemoteStream stream = cluster.node(0).newStream(cluster.device(1, 0));
    IllegalArgumentException atCall =
        assertThrows(IllegalArgumentException.class, () -> stream.waitEvent(handle));
    assertTrue(atCall.getMessage().contains(stranger + " is not a member"), atCall.getMessage());
    DeviceExecutionException atSync =
        assertThrows(
            DeviceExecutionException.class, () -> stream.synchronize(Duration.ofSeconds(10)));
    assertTrue(atSync.getMessage().contains("event 5 of node " + stranger), atSync.getMessage());
    assertTrue(atSync.getMessage().contains("is not a member"), atSync.getMessage());
  }
}
