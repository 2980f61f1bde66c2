package dev.openaccel.cluster;

import static dev.openaccel.cluster.TestKernels.intArg;
import static dev.openaccel.cluster.TestKernels.intAt;
import static dev.openaccel.cluster.TestKernels.text;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.EventHandle;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** Streams on another node: work by name, in call order, with failures reported at sync points. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RemoteStreamTest {
  private TestCluster cluster;
  private ClusterAccelerator client;

  @BeforeAll
  void start() {
    cluster = TestCluster.start(2);
    client = cluster.node(0);
  }

  @AfterAll
  void stop() {
    cluster.close();
  }

  @Test
  void aLaunchByNameRunsOnTheStreamsNodeWithItsArgsAndBuffers() throws Exception {
    RemoteDevice remote = cluster.device(1, 1);
    RemoteStream stream = client.newStream(remote);
    RemoteBuffer data = client.allocate(remote, 16);
    RemoteBuffer where = client.allocate(remote, 4);
    stream.launch("fill", intArg(7), data);
    stream.launch("add", intArg(5), data);
    stream.launch("node-index", new byte[0], where);
    byte[] result = stream.read(data).toCompletableFuture().get(10, TimeUnit.SECONDS);
    byte[] node = stream.read(where).toCompletableFuture().get(10, TimeUnit.SECONDS);
    for (int i = 0; i < 4; i++) {
      assertEquals(12, intAt(result, i));
    }
    assertEquals(1, intAt(node, 0));
    assertEquals(remote, stream.device());
  }

  @Test
  void workOnOneRemoteStreamRunsInCallOrder() throws Exception {
    RemoteDevice remote = cluster.device(1, 0);
    RemoteStream stream = client.newStream(remote);
    int n = 300;
    RemoteBuffer log = client.allocate(remote, 4L * (n + 1));
    stream.write(new byte[4 * (n + 1)], log);
    for (int i = 0; i < n; i++) {
      stream.launch("append", intArg(i), log);
    }
    byte[] entries = stream.read(log).toCompletableFuture().get(10, TimeUnit.SECONDS);
    assertEquals(n, intAt(entries, 0));
    for (int i = 0; i < n; i++) {
      assertEquals(i, intAt(entries, i + 1), "entry " + i);
    }
  }

  @Test
  void writeThenReadReturnsTheBytesAcrossSeveralChunks() throws Exception {
    RemoteDevice remote = cluster.device(1, 0);
    RemoteStream stream = client.newStream(remote);
    byte[] bytes = new byte[3 * NodeCopy.CHUNK + 100];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) (i * 31);
    }
    RemoteBuffer buffer = client.allocate(remote, bytes.length);
    stream.write(bytes, buffer);
    assertArrayEquals(bytes, stream.read(buffer).toCompletableFuture().get(10, TimeUnit.SECONDS));
  }

  @Test
  void synchronizeWaitsForTheRemoteWork() {
    RemoteStream stream = client.newStream(cluster.device(1, 0));
    CountDownLatch gate = TestKernels.gate("sync-waits");
    stream.launch("gate", text("sync-waits"));
    assertFalse(stream.synchronize(Duration.ofMillis(200)));
    gate.countDown();
    assertTrue(stream.synchronize(Duration.ofSeconds(10)));
  }

  @Test
  void anUnknownKernelNameFailsAtTheNextSynchronizeNamingTheNode() {
    RemoteStream stream = client.newStream(cluster.device(1, 0));
    stream.launch("no-such-kernel", new byte[0]);
    DeviceExecutionException e =
        assertThrows(
            DeviceExecutionException.class, () -> stream.synchronize(Duration.ofSeconds(10)));
    assertTrue(e.getMessage().contains("no kernel named 'no-such-kernel'"), e.getMessage());
    assertTrue(e.getMessage().contains(cluster.node(1).selfNode()), e.getMessage());
  }

  @Test
  void aFailingKernelFailsTheNextSynchronizeAndTheStreamGoesOn() {
    RemoteStream stream = client.newStream(cluster.device(1, 1));
    stream.launch("fail", text("remote"));
    DeviceExecutionException e =
        assertThrows(
            DeviceExecutionException.class, () -> stream.synchronize(Duration.ofSeconds(10)));
    assertTrue(e.getMessage().contains("kernel failed on purpose: remote"), e.getMessage());
    stream.launch("add", intArg(1), client.allocate(cluster.device(1, 1), 4));
    assertTrue(stream.synchronize(Duration.ofSeconds(10)));
  }

  @Test
  void aBufferOfAnotherDeviceIsRejectedAtLaunch() {
    RemoteStream stream = client.newStream(cluster.device(1, 0));
    RemoteBuffer elsewhere = client.allocate(cluster.device(1, 1), 4);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> stream.launch("add", intArg(1), elsewhere));
    assertTrue(e.getMessage().contains("is not on this stream's device"), e.getMessage());
  }

  @Test
  void aWriteOfTheWrongSizeIsRejectedNamingBothSizes() {
    RemoteStream stream = client.newStream(cluster.device(1, 0));
    RemoteBuffer buffer = client.allocate(cluster.device(1, 0), 8);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> stream.write(new byte[5], buffer));
    assertTrue(e.getMessage().contains("5") && e.getMessage().contains("8"), e.getMessage());
  }

  @Test
  void aStreamOnAnOutOfRangeDeviceIsRejectedByItsNode() {
    RemoteDevice missing = RemoteDevice.parse(cluster.node(1).selfNode() + "/openreg:7");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> client.newStream(missing));
    assertTrue(e.getMessage().contains("device index is out of range"), e.getMessage());
    assertTrue(e.getMessage().contains(cluster.node(1).selfNode()), e.getMessage());
  }

  @Test
  void anAllocationOfNoBytesIsRejected() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> client.allocate(cluster.device(1, 0), 0));
    assertTrue(e.getMessage().contains("cannot allocate 0 bytes"), e.getMessage());
  }

  @Test
  void streamsOfTheLocalNodeWorkTheSameWayWithoutMessages() throws Exception {
    RemoteDevice local = cluster.device(0, 1);
    RemoteStream stream = client.newStream(local);
    RemoteBuffer where = client.allocate(local, 4);
    stream.launch("node-index", new byte[0], where);
    assertEquals(0, intAt(stream.read(where).toCompletableFuture().get(10, TimeUnit.SECONDS), 0));
  }

  @Test
  void twoNewStreamsAreDifferentAndEachEqualsItself() {
    RemoteStream a = client.newStream(cluster.device(1, 0));
    RemoteStream b = client.newStream(cluster.device(1, 0));
    assertNotEquals(a, b);
    assertEquals(a, a);
    assertTrue(a.toString().contains(cluster.device(1, 0).toString()), a.toString());
  }

  @Test
  void aFreedBufferCannotBeUsedAnyMore() {
    RemoteStream stream = client.newStream(cluster.device(1, 0));
    RemoteBuffer buffer = client.allocate(cluster.device(1, 0), 4);
    client.free(buffer);
    stream.write(ByteBuffer.allocate(4).array(), buffer);
    DeviceExecutionException e =
        assertThrows(
            DeviceExecutionException.class, () -> stream.synchronize(Duration.ofSeconds(10)));
    assertTrue(e.getMessage().contains("unknown or was freed"), e.getMessage());
  }

  @Test
  void aClosedClusterEventCanNoLongerBeOpened() {
    RemoteStream stream = client.newStream(cluster.device(1, 0));
    EventHandle handle = stream.recordEvent();
    assertTrue(client.openEvent(handle).synchronize(Duration.ofSeconds(10)));
    client.closeEvent(handle);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> client.openEvent(handle));
    assertTrue(e.getMessage().contains("no live interprocess"), e.getMessage());
  }

  @Test
  void waitingForAnUnknownEventFailsAtTheCallAndAtTheStreamsNextSynchronize() {
    RemoteStream stream = client.newStream(cluster.device(1, 0));
    EventHandle bogus =
        new EventHandle(stream.device().device().type(), 0, 424_242, cluster.node(1).selfNode());
    IllegalArgumentException atCall =
        assertThrows(IllegalArgumentException.class, () -> stream.waitEvent(bogus));
    assertTrue(atCall.getMessage().contains("424242"), atCall.getMessage());
    DeviceExecutionException e =
        assertThrows(
            DeviceExecutionException.class, () -> stream.synchronize(Duration.ofSeconds(10)));
    assertTrue(e.getMessage().contains("no live interprocess"), e.getMessage());
    assertTrue(e.getMessage().contains("event 424242 of node"), e.getMessage());
  }

  @Test
  void reRecordingAClusterEventOfAnotherNodeIsRejected() {
    RemoteStream stream = client.newStream(cluster.device(1, 0));
    EventHandle local = client.newStream(cluster.device(0, 0)).recordEvent();
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> stream.recordEvent(local));
    assertTrue(e.getMessage().contains("not to this stream's device"), e.getMessage());
  }

  @Test
  void reRecordingAClusterEventFollowsTheNewRecord() {
    RemoteStream stream = client.newStream(cluster.device(1, 0));
    EventHandle handle = stream.recordEvent();
    var opened = client.openEvent(handle);
    assertTrue(opened.synchronize(Duration.ofSeconds(10)));
    CountDownLatch gate = TestKernels.gate("re-record");
    stream.launch("gate", text("re-record"));
    assertEquals(handle, stream.recordEvent(handle));
    assertFalse(opened.synchronize(Duration.ofMillis(200)));
    gate.countDown();
    assertTrue(opened.synchronize(Duration.ofSeconds(10)));
  }

  @Test
  void aSynchronizeInAnActorOfTheNodesOwnSystemIsRejectedWithTheAsyncHint() throws Exception {
    RemoteStream stream = client.newStream(cluster.device(1, 0));
    stream.launch("fill", intArg(1), client.allocate(cluster.device(1, 0), 4));
    CompletableFuture<Throwable> thrown = new CompletableFuture<>();
    cluster
        .system(0)
        .systemActorOf(
            Behaviors.<String>receiveMessage(
                message -> {
                  try {
                    stream.synchronize();
                    thrown.complete(null);
                  } catch (RuntimeException e) {
                    thrown.complete(e);
                  }
                  return Behaviors.stopped();
                }),
            "blocking-caller",
            Props.empty())
        .tell("call");
    Throwable e = thrown.get(10, TimeUnit.SECONDS);
    assertTrue(e instanceof IllegalStateException, () -> "got " + e);
    assertTrue(e.getMessage().contains("blocking call on an actor thread"), e.getMessage());
    assertTrue(e.getMessage().contains("synchronizeAsync()"), e.getMessage());
    stream.synchronize(); // from the test's own thread it waits, as before
  }
}
