package dev.openaccel.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.DeviceBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * A process group's host arrays are reused by exact length, at most {@link HostArrays#MAX_IDLE}
 * wait, and back-to-back operations of one size make one array, not one each; the pieces they
 * receive go back to the chunk pool.
 */
class HostArraysTest {

  @Test
  void anArrayGivenBackIsTakenAgainOnlyForItsExactLength() {
    HostArrays arrays = new HostArrays();
    byte[] first = arrays.take(1024);
    arrays.give(first);
    assertNotSame(first, arrays.take(1000));
    assertSame(first, arrays.take(1024));
    assertEquals(2, arrays.made());
    assertEquals(0, arrays.idle());
  }

  @Test
  void atMostMaxIdleArraysWait() {
    HostArrays arrays = new HostArrays();
    List<byte[]> taken = new ArrayList<>();
    for (int i = 0; i < HostArrays.MAX_IDLE + 3; i++) {
      taken.add(arrays.take(64));
    }
    taken.forEach(arrays::give);
    assertEquals(HostArrays.MAX_IDLE, arrays.idle());
    for (int i = 0; i < HostArrays.MAX_IDLE; i++) {
      arrays.take(64);
    }
    assertEquals(HostArrays.MAX_IDLE + 3, arrays.made(), "the idle ones were taken, none made");
  }

  @Test
  void backToBackAllReducesOfOneSizeReuseOneArrayPerMemberAndGiveTheirPiecesBack() {
    try (TestCluster cluster = TestCluster.start(3);
        Groups groups = Groups.create(cluster, 3, "host-arrays", 0)) {
      List<DeviceBuffer> data = new ArrayList<>();
      for (int rank = 0; rank < 3; rank++) {
        // The ring, segments of 1 MiB: whole-chunk pieces, which arrive in pooled arrays.
        data.add(groups.buffer(rank, new byte[3 << 20]));
      }
      for (int op = 0; op < 50; op++) {
        groups.onAll(rank -> groups.sumInPlace(rank, data.get(rank)));
        for (int rank = 0; rank < 3; rank++) {
          awaitIdle(groups.group(rank).hostArrays());
        }
      }
      for (int rank = 0; rank < 3; rank++) {
        assertEquals(1, groups.group(rank).hostArrays().made(), "rank " + rank);
        assertTrue(ChunkPool.of(cluster.system(rank)).idle() > 0, "pieces back on rank " + rank);
      }
    }
  }

  /** Waits, bounded, until the array of the operation that ended is back. */
  private static void awaitIdle(HostArrays arrays) {
    long deadline = System.nanoTime() + TestCluster.WAIT.toNanos();
    while (arrays.idle() != 1) {
      assertTrue(System.nanoTime() < deadline, () -> arrays.idle() + " arrays idle, not 1");
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
    }
  }
}
