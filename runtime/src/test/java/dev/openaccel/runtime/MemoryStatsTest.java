package dev.openaccel.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The figures of {@link MemoryStats}: the four-figure form and the checks of the counts. */
class MemoryStatsTest {

  @Test
  void theFourFigureConstructorKeepsItsFiguresAndCountsNothing() {
    MemoryStats stats = new MemoryStats(1024, 4096, 2048, 1 << 20);
    assertEquals(1024, stats.allocated());
    assertEquals(4096, stats.reserved());
    assertEquals(2048, stats.peakAllocated());
    assertEquals(1 << 20, stats.capacity());
    assertEquals(new MemoryStats(1024, 4096, 2048, 1 << 20, 0, 0, 0, 0, 0), stats);
  }

  @Test
  void aNegativeCountIsRejectedNamingIt() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> new MemoryStats(0, 0, 0, 0, 0, 0, -1, 0, 0));
    assertTrue(e.getMessage().contains("outOfMemoryFailures must be >= 0, got -1"), e.getMessage());
  }
}
