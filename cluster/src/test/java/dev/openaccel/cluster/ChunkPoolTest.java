package dev.openaccel.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.DeviceExecutionException;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** Chunk arrays are reused across transfers, and come back to the pool when a transfer fails. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ChunkPoolTest {
  private static final Duration LONG = Duration.ofSeconds(30);
  private TestCluster cluster;

  @BeforeAll
  void start() {
    cluster = TestCluster.start(2, "openaccel.cluster.bulk.timeout = 2s");
  }

  @AfterAll
  void stop() {
    cluster.close();
  }

  @Test
  void onlyWholeChunksArePooledAndThePoolIsBounded() {
    ChunkPool pool = new ChunkPool(2);
    byte[] chunk = pool.take(NodeCopy.CHUNK);
    pool.give(chunk);
    pool.give(new byte[100]);
    assertEquals(1, pool.idle());
    assertSame(chunk, pool.take(NodeCopy.CHUNK));
    assertEquals(100, pool.take(100).length);
    for (int i = 0; i < 5; i++) {
      pool.give(new byte[NodeCopy.CHUNK]);
    }
    assertEquals(2, pool.idle());
    assertNotSame(chunk, pool.take(NodeCopy.CHUNK));
  }

  @Test
  void pushesAndPullsGiveTheirChunksBackOnBothNodes() throws Exception {
    ChunkPool sender = drained(0);
    ChunkPool receiver = drained(1);
    int chunks = 3;
    byte[] pattern = new byte[chunks * NodeCopy.CHUNK];
    Patterns.fill(pattern, new SplittableRandom(3));
    ClusterAccelerator a = cluster.node(0);
    RemoteBuffer source = a.allocate(cluster.device(0, 0), pattern.length);
    RemoteBuffer target = a.allocate(cluster.device(1, 0), pattern.length);
    RemoteStream onA = a.newStream(cluster.device(0, 0));
    onA.write(pattern, source);
    assertTrue(onA.synchronize(LONG));
    RemoteStream onB = cluster.node(1).newStream(cluster.device(1, 0));
    onB.copy(source, target); // pulled: A reads into pooled arrays, B takes pooled arrays
    assertTrue(onB.synchronize(LONG));
    assertArrayEquals(pattern, onB.read(target).toCompletableFuture().get(30, TimeUnit.SECONDS));
    assertEquals(chunks, sender.idle(), "A's fetched chunks (read at once), given back once sent");
    // B may take a chunk's array again once an earlier chunk was copied in and gave it back.
    assertTrue(receiver.idle() >= 1, "B's chunks, given back once copied in");

    int before = receiver.idle();
    onA.copy(source, target); // pushed: B takes its chunks from the pool, and gives them back
    assertTrue(onA.synchronize(LONG));
    assertTrue(receiver.idle() >= before, "taken again and given back");
  }

  @Test
  void chunksOfAFailedTransferGoBackToThePool() throws Exception {
    ChunkPool receiver = drained(1);
    ClusterAccelerator a = cluster.node(0);
    RemoteStream stream = a.newStream(cluster.device(1, 1));
    RemoteBuffer freed = a.allocate(cluster.device(1, 1), 2L * NodeCopy.CHUNK);
    a.free(freed);
    stream.write(new byte[2 * NodeCopy.CHUNK], freed); // B refuses it; its chunks still arrive
    assertThrows(DeviceExecutionException.class, () -> stream.synchronize(LONG));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (receiver.idle() < 2 && System.nanoTime() < deadline) {
      Thread.sleep(50); // dropped as unexpected after the bulk timeout (2 s here)
    }
    assertEquals(2, receiver.idle());
  }

  /** Node {@code i}'s pool, emptied, so what comes back afterwards can be counted. */
  private ChunkPool drained(int i) {
    ChunkPool pool = ChunkPool.of(cluster.system(i));
    while (pool.idle() > 0) {
      pool.take(NodeCopy.CHUNK);
    }
    return pool;
  }
}
