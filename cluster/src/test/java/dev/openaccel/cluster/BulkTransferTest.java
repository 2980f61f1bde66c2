package dev.openaccel.cluster;

import static dev.openaccel.cluster.TestKernels.intArg;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Bulk transfers far beyond what Artery's queues hold at once arrive complete, byte for byte, and
 * never hang: flow control holds the excess at the sender.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BulkTransferTest {
  private static final int MIB = 1 << 20;
  private static final int SIZE = 64 * MIB;
  private static final int COUNT = 16;
  private static final int PUSHES = 4;
  private static final Duration LONG = Duration.ofSeconds(120);
  private TestCluster cluster;

  @BeforeAll
  void start() {
    cluster = TestCluster.start(2, "openaccel.openreg.memory-per-device = 640MiB");
  }

  @AfterAll
  void stop() {
    cluster.close();
  }

  @Test
  void sixteenQueuedWritesOf64MiBEachArriveWhole() throws Exception {
    ClusterAccelerator zero = cluster.node(0);
    RemoteStream stream = zero.newStream(cluster.device(1, 0));
    RemoteBuffer target = zero.allocate(cluster.device(1, 0), SIZE);
    RemoteBuffer sums = zero.allocate(cluster.device(1, 0), 8L * COUNT);
    byte[] pattern = new byte[SIZE];
    long[] expected = new long[COUNT];
    SplittableRandom random = new SplittableRandom(14);
    for (int k = 0; k < COUNT; k++) {
      Patterns.fill(pattern, random);
      expected[k] = crc(pattern);
      stream.write(pattern, target); // copies at the call: the next pattern may reuse the array
      stream.launch("crc", intArg(k), target, sums);
    }
    assertTrue(stream.synchronize(LONG), "16 writes of 64 MiB did not complete within " + LONG);
    ByteBuffer found =
        ByteBuffer.wrap(stream.read(sums).toCompletableFuture().get(30, TimeUnit.SECONDS));
    for (int k = 0; k < COUNT; k++) {
      assertEquals(expected[k], found.getLong(8 * k), "checksum of write " + k);
    }
    zero.free(target);
    zero.free(sums);
  }

  @Test
  void sixteenConcurrentPullsOf64MiBEachArriveWhole() throws Exception {
    ClusterAccelerator zero = cluster.node(0);
    ClusterAccelerator one = cluster.node(1);
    List<RemoteBuffer> sources = new ArrayList<>();
    long[] expected = new long[2];
    byte[] pattern = new byte[SIZE];
    SplittableRandom random = new SplittableRandom(41);
    for (int d = 0; d < 2; d++) {
      RemoteBuffer source = one.allocate(cluster.device(1, d), SIZE);
      Patterns.fill(pattern, random);
      expected[d] = crc(pattern);
      RemoteStream filler = one.newStream(cluster.device(1, d));
      filler.write(pattern, source);
      assertTrue(filler.synchronize(LONG));
      sources.add(source);
    }
    List<RemoteStream> streams = new ArrayList<>();
    List<RemoteBuffer> sums = new ArrayList<>();
    List<RemoteBuffer> targets = new ArrayList<>();
    for (int k = 0; k < COUNT; k++) {
      RemoteDevice device = cluster.device(0, k % 2);
      RemoteStream stream = zero.newStream(device);
      RemoteBuffer target = zero.allocate(device, SIZE);
      RemoteBuffer sum = zero.allocate(device, 8);
      stream.copy(sources.get(k % 2), target);
      stream.launch("crc", intArg(0), target, sum);
      streams.add(stream);
      sums.add(sum);
      targets.add(target);
    }
    for (int k = 0; k < COUNT; k++) {
      assertTrue(streams.get(k).synchronize(LONG), "pull " + k + " did not complete");
      byte[] sum = streams.get(k).read(sums.get(k)).toCompletableFuture().get(30, TimeUnit.SECONDS);
      assertEquals(expected[k % 2], ByteBuffer.wrap(sum).getLong(0), "checksum of pull " + k);
    }
    for (int k = 0; k < COUNT; k++) {
      zero.free(targets.get(k));
      zero.free(sums.get(k));
    }
    sources.forEach(one::free);
    assertReadAheadBounded(one, zero);
  }

  @Test
  void concurrentPushesOf64MiBEachArriveWholeReadAPartAtATime() throws Exception {
    ClusterAccelerator zero = cluster.node(0);
    byte[] pattern = new byte[SIZE];
    Patterns.fill(pattern, new SplittableRandom(7));
    long expected = crc(pattern);
    RemoteBuffer source = zero.allocate(cluster.device(0, 0), SIZE);
    RemoteStream filler = zero.newStream(cluster.device(0, 0));
    filler.write(pattern, source);
    assertTrue(filler.synchronize(LONG));
    List<RemoteStream> pushers = new ArrayList<>();
    List<RemoteBuffer> targets = new ArrayList<>();
    for (int k = 0; k < PUSHES; k++) {
      RemoteStream stream = zero.newStream(cluster.device(0, 0));
      RemoteBuffer target = zero.allocate(cluster.device(1, k % 2), SIZE);
      stream.copy(source, target);
      pushers.add(stream);
      targets.add(target);
    }
    for (int k = 0; k < PUSHES; k++) {
      assertTrue(pushers.get(k).synchronize(LONG), "push " + k + " did not complete");
      RemoteStream checker = zero.newStream(cluster.device(1, k % 2));
      RemoteBuffer sum = zero.allocate(cluster.device(1, k % 2), 8);
      checker.launch("crc", intArg(0), targets.get(k), sum);
      byte[] found = checker.read(sum).toCompletableFuture().get(30, TimeUnit.SECONDS);
      assertEquals(expected, ByteBuffer.wrap(found).getLong(0), "checksum of push " + k);
      zero.free(sum);
      zero.free(targets.get(k));
    }
    zero.free(source);
    assertReadAheadBounded(zero, cluster.node(1));
  }

  /** The sender never held more of its sources than its read-ahead, however much it sent. */
  private static void assertReadAheadBounded(ClusterAccelerator from, ClusterAccelerator to) {
    long window = ClusterSettings.from(cluster(from).settings().config()).window();
    long bound = Math.max(BulkSender.READ, window / 2);
    long peak = from.bulk().peakReadAhead(to.selfNode());
    assertTrue(peak > 0 && peak <= bound, "read ahead " + peak + " of at most " + bound);
  }

  private static org.apache.pekko.actor.typed.ActorSystem<?> cluster(ClusterAccelerator node) {
    return node.accelerator().system();
  }

  private static long crc(byte[] bytes) {
    CRC32 crc = new CRC32();
    crc.update(bytes);
    return crc.getValue();
  }
}
