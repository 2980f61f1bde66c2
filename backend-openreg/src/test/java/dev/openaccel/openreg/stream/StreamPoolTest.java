package dev.openaccel.openreg.stream;

import static dev.openaccel.openreg.testing.KernelLatches.D0;
import static dev.openaccel.openreg.testing.KernelLatches.D1;
import static dev.openaccel.openreg.testing.KernelLatches.OPENREG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.openaccel.openreg.testing.KernelLatches;
import dev.openaccel.openreg.testing.SharedAcceleratorTest;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.Stream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The stream pools of {@code streamFromPool}, with torch's semantics: per device and priority class
 * a fixed pool (32 by default, {@code openaccel.openreg.stream-pool-size}) handed out round-robin.
 * The round-robin position is shared state of the accelerator, so every assertion here holds
 * whatever position a pool is at when the test starts.
 */
class StreamPoolTest extends SharedAcceleratorTest {
  private static final int POOL = 32;

  private static List<Stream> take(Accelerator from, Device device, boolean high, int count) {
    List<Stream> streams = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      streams.add(from.streamFromPool(device, high));
    }
    return streams;
  }

  @Test
  void lowPriorityPoolHands32DistinctStreamsThenWraps() {
    List<Stream> streams = take(acc, D0, false, POOL + 1);
    assertEquals(POOL, new HashSet<>(streams.subList(0, POOL)).size());
    assertEquals(streams.get(0), streams.get(POOL));
  }

  @Test
  void highPriorityPoolHands32DistinctStreamsThenWraps() {
    List<Stream> streams = take(acc, D1, true, POOL + 1);
    assertEquals(POOL, new HashSet<>(streams.subList(0, POOL)).size());
    assertEquals(streams.get(0), streams.get(POOL));
  }

  @Test
  void highAndLowPoolsAreDisjoint() {
    Set<Stream> low = new HashSet<>(take(acc, D0, false, POOL));
    Set<Stream> high = new HashSet<>(take(acc, D0, true, POOL));
    assertEquals(POOL, low.size());
    assertEquals(POOL, high.size());
    low.retainAll(high);
    assertTrue(low.isEmpty(), "shared streams: " + low);
  }

  @Test
  void pooledStreamsCarryTheirPoolsPriority() {
    for (Stream stream : take(acc, D1, true, POOL)) {
      assertEquals(acc.priorityRange(OPENREG).greatest(), stream.priority(), stream.toString());
    }
    for (Stream stream : take(acc, D1, false, POOL)) {
      assertEquals(acc.priorityRange(OPENREG).least(), stream.priority(), stream.toString());
    }
  }

  @Test
  void pooledStreamsAreNeitherTheDefaultNorNewStreams() {
    Set<Stream> pooled = new HashSet<>(take(acc, D0, false, POOL));
    pooled.addAll(take(acc, D0, true, POOL));
    assertFalse(pooled.contains(acc.defaultStream(D0)));
    Stream fresh = acc.newStream(D0);
    assertFalse(pooled.contains(fresh));
    for (Stream stream : pooled) {
      assertNotEquals(0, stream.id());
    }
  }

  @Test
  void poolStreamsBelongToTheRequestedDevice() {
    for (Stream stream : take(acc, D1, false, 3)) {
      assertEquals(D1, stream.device());
    }
    acc.setDeviceIndex(1);
    try {
      assertEquals(D1, acc.streamFromPool(Device.parse("openreg"), true).device());
    } finally {
      acc.setDeviceIndex(0);
    }
  }

  @Test
  void pooledStreamCanBeRewrappedById() {
    Stream pooled = acc.streamFromPool(D1, true);
    assertEquals(pooled, acc.stream(D1, pooled.id()));
  }

  @Test
  void pooledStreamsRunKernels() throws Exception {
    Stream pooled = acc.streamFromPool(D0, false);
    assertEquals(7, KernelLatches.get(pooled.submit("seven", () -> 7)));
  }

  @Test
  void poolOfOutOfRangeDeviceIsRejected() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> acc.streamFromPool(Device.of(OPENREG, 2), true));
    assertTrue(e.getMessage().contains("device index is out of range"), e.getMessage());
  }

  @Test
  void theRuntimesPoolSizeKeyGivenToStartSetsTheBackendsPool() {
    try (Accelerator small =
        startWith("runtime-pool-size-three", "openaccel.stream-pool-size", 3)) {
      assertWrapsAfter(3, take(small, D0, false, 4)); // the reference default follows the key
    }
  }

  @Test
  void configuredPoolSizeOfFourWrapsOnTheFifthCall() {
    try (Accelerator small = startWith("pool-size-four", "openaccel.openreg.stream-pool-size", 4)) {
      List<Stream> low = take(small, D0, false, 5);
      assertWrapsAfter(4, low);
      List<Stream> high = take(small, D0, true, 5);
      assertWrapsAfter(4, high);
      assertTrue(new HashSet<>(low).stream().noneMatch(high::contains));
    }
  }

  private static Accelerator startWith(String systemName, String key, int poolSize) {
    return Accelerator.start(
        ConfigFactory.parseString(
            "openaccel.system-name = \"" + systemName + "\"\n" + key + " = " + poolSize));
  }

  /** The first {@code size} streams differ and the next one is the first again. */
  private static void assertWrapsAfter(int size, List<Stream> taken) {
    assertEquals(size, new HashSet<>(taken.subList(0, size)).size());
    assertEquals(taken.get(0), taken.get(size));
  }
}
