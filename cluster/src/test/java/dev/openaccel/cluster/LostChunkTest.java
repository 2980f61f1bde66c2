package dev.openaccel.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.DeviceExecutionException;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A chunk lost on the wire fails its copy loudly, naming the node, and never lets it report success
 * with stale bytes; the credit it held comes back, so later copies go through. A source that cannot
 * be read fails the chunks that will not come, with its reason.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LostChunkTest {
  private static final Duration LONG = Duration.ofSeconds(60);
  private static final int CHUNKS = 12;
  private TestCluster cluster;

  @BeforeAll
  void start() {
    cluster =
        TestCluster.start(
            2,
            "openaccel.cluster.bulk.timeout = 2s\n"
                + "pekko.actor.serializers.openaccel-bulk ="
                + " \"dev.openaccel.cluster.DroppingBulkSerializer\"");
  }

  @AfterAll
  void stop() {
    DroppingBulkSerializer.dropNext(null);
    cluster.close();
  }

  @Test
  void aLostChunkFailsThePullAndTheNextPullArrivesWhole() throws Exception {
    lostChunkFailsTheCopyAndTheNextArrivesWhole(1, 0, -1);
  }

  @Test
  void aLostChunkFailsThePushAndTheNextPushArrivesWhole() throws Exception {
    lostChunkFailsTheCopyAndTheNextArrivesWhole(0, 1, 1);
  }

  @Test
  void aSourceThatCannotBeReadFailsTheChunksThatWillNotComeWithItsReason() throws Exception {
    BulkSource whole = BulkSource.of(new byte[3 * NodeCopy.BATCH * NodeCopy.CHUNK]);
    BulkSource failing =
        new BulkSource() {
          @Override
          public long length() {
            return whole.length();
          }

          @Override
          public CompletionStage<List<Slice>> read(long from, int length) {
            return from == 0
                ? whole.read(from, length)
                : CompletableFuture.failedStage(new IllegalStateException("buffer 12 was freed"));
          }
        };
    Bulk zero = cluster.node(0).bulk();
    Bulk one = cluster.node(1).bulk();
    String from = cluster.node(0).selfNode();
    long transfer = zero.pushId();
    long first = NodeCopy.CHUNK;
    long missing = (long) NodeCopy.BATCH * NodeCopy.CHUNK;
    CompletableFuture<byte[]> arrived =
        one.inbox().expect(new Inbox.Key(from, transfer, first), true);
    CompletableFuture<byte[]> lost =
        one.inbox().expect(new Inbox.Key(from, transfer, missing), true);
    CompletionStage<Void> sent = zero.send(cluster.node(1).selfNode(), transfer, 0, failing);

    assertEquals(NodeCopy.CHUNK, arrived.get(30, TimeUnit.SECONDS).length);
    ExecutionException failure =
        assertThrows(ExecutionException.class, () -> lost.get(30, TimeUnit.SECONDS));
    String message = failure.getCause().getMessage();
    assertTrue(message.contains("buffer 12 was freed") && message.contains(from), message);
    assertThrows(
        ExecutionException.class, () -> sent.toCompletableFuture().get(30, TimeUnit.SECONDS));
  }

  /** A copy from node {@code from} to {@code to} on a stream of node 0; sign: the transfer ids'. */
  private void lostChunkFailsTheCopyAndTheNextArrivesWhole(int from, int to, int sign)
      throws Exception {
    ClusterAccelerator zero = cluster.node(0);
    byte[] pattern = new byte[CHUNKS * NodeCopy.CHUNK];
    Patterns.fill(pattern, new SplittableRandom(from));
    RemoteBuffer source = zero.allocate(cluster.device(from, 0), pattern.length);
    RemoteBuffer target = zero.allocate(cluster.device(to, 0), pattern.length);
    RemoteStream filler = zero.newStream(cluster.device(from, 0));
    filler.write(pattern, source);
    assertTrue(filler.synchronize(LONG));
    RemoteStream stream = zero.newStream(cluster.device(0, 0));

    DroppingBulkSerializer.dropNext(
        chunk -> Long.signum(chunk.transferId()) == sign && chunk.offset() == 5L * NodeCopy.CHUNK);
    stream.copy(source, target);
    DeviceExecutionException lost =
        assertThrows(DeviceExecutionException.class, () -> stream.synchronize(LONG));
    String node = cluster.node(from).selfNode();
    assertTrue(lost.getMessage().contains("bulk data lost"), lost.getMessage());
    assertTrue(lost.getMessage().contains(node), lost.getMessage());

    stream.copy(source, target);
    assertTrue(stream.synchronize(LONG), "the copy after the loss did not complete");
    RemoteStream reader = zero.newStream(cluster.device(to, 0));
    assertArrayEquals(pattern, readAll(reader, target));
    zero.free(source);
    zero.free(target);
  }

  private static byte[] readAll(RemoteStream stream, RemoteBuffer buffer) throws Exception {
    return stream.read(buffer).toCompletableFuture().get(30, TimeUnit.SECONDS);
  }
}
