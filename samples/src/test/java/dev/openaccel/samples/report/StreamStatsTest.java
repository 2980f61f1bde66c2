package dev.openaccel.samples.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Lanes of a timeline, their busy time, and the time one set of spans hides under another. */
class StreamStatsTest {
  private static final Track COPY = new Track(0, "openreg:0", 65, "copy-in");
  private static final Track COMPUTE = new Track(0, "openreg:0", 66, "compute 0");

  private static Span span(long stream, long start, long end) {
    return new Span(0, stream, "k", start, end, false);
  }

  @Test
  void statsCountKernelsAndBusyTimePerLane() {
    Timeline timeline =
        new Timeline(
            List.of(COPY, COMPUTE), List.of(span(65, 0, 10), span(66, 5, 25), span(65, 30, 35)));
    assertEquals(
        List.of(new StreamStats(COPY, 2, 15), new StreamStats(COMPUTE, 1, 20)),
        StreamStats.of(timeline));
    assertEquals(0, timeline.originNanos());
    assertEquals(35, timeline.endNanos());
  }

  @Test
  void aStreamWithoutATrackGetsALaneOfItsOwn() {
    Timeline timeline =
        new Timeline(List.of(COPY), List.of(span(65, 0, 1), new Span(0, 99, "k", 2, 3, false)));
    assertEquals(List.of(COPY, new Track(0, "openreg:0", 99, "stream 99")), timeline.tracks());
  }

  @Test
  void coveredTimeCountsOnlyTheOverlapWithTheUnionOfTheCover() {
    List<Span> copies = List.of(span(65, 0, 10), span(65, 20, 30), span(65, 40, 50));
    List<Span> compute = List.of(span(66, 5, 22), span(67, 8, 25), span(66, 45, 60));
    // [0,10) overlaps [5,25) by 5; [20,30) by 5; [40,50) overlaps [45,60) by 5
    assertEquals(15, StreamStats.coveredNanos(copies, compute));
    assertEquals(0, StreamStats.coveredNanos(copies, List.of()));
  }

  @Test
  void aSpanCannotEndBeforeItStarts() {
    assertThrows(IllegalArgumentException.class, () -> span(65, 10, 5));
  }

  @Test
  void theKindOfAKernelIsItsNameUpToASpaceOrBracket() {
    assertEquals("gemm", new Span(0, 1, "gemm C[0,1] k=2", 0, 0, false).kind());
    assertEquals("copyToDevice", new Span(0, 1, "copyToDevice", 0, 0, false).kind());
    assertEquals("load", new Span(0, 1, "load[3]", 0, 0, false).kind());
  }
}
