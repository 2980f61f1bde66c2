package dev.openaccel.samples.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Graph replays placed among the kernels of a known trace. */
class ReplaysTest {
  static final Track MAIN = new Track(0, "openreg:0", 65, "main");
  static final Track SIDE = new Track(0, "openreg:0", 66, "side");

  /**
   * A kernel the stream was still running when both replays were enqueued (at 1 000 ns), a graph of
   * three kernels replayed twice on stream 65 (the second replay failed), a kernel of another
   * stream inside the first replay, and a replay of another stream that ran no kernel.
   */
  static TraceLog twoReplays() {
    List<Span> spans =
        List.of(
            new Span(0, 65, "before", 0, 2_000, false),
            new Span(0, 65, "double", 2_000, 3_000, false),
            new Span(0, 66, "square", 2_500, 3_500, false),
            new Span(0, 65, "sum", 3_500, 4_000, false),
            new Span(0, 65, "copyToHost", 4_000, 4_500, false),
            new Span(0, 65, "double", 4_600, 5_000, false),
            new Span(0, 65, "sum", 5_100, 6_000, true),
            new Span(0, 65, "copyToHost", 6_000, 6_200, false),
            new Span(0, 65, "after", 6_400, 7_000, false));
    List<GraphReplay> replays =
        List.of(
            new GraphReplay(0, 65, 3, 2, 1_000, 6_300, true),
            new GraphReplay(0, 65, 3, 1, 1_000, 4_550, false),
            new GraphReplay(0, 66, 4, 1, 7_000, 7_100, false));
    return new TraceLog(spans, List.of(), List.of(), replays);
  }

  static List<String> names(List<Span> spans) {
    return spans.stream().map(Span::name).toList();
  }

  @Test
  void eachReplayEnclosesExactlyItsKernelsOnTheLaunchingStream() {
    Timeline timeline = new Timeline(List.of(MAIN, SIDE), twoReplays());
    List<ReplaySpan> replays = timeline.replaysOf(MAIN);
    assertEquals(
        List.of("graph 3 replay 1", "graph 3 replay 2"),
        replays.stream().map(ReplaySpan::name).toList());
    assertEquals(List.of(), timeline.replaysOf(SIDE), "a replay with no kernels is left out");
    assertEquals(replays, timeline.replays());
    for (ReplaySpan replay : replays) {
      List<Span> inside =
          timeline.spansOf(MAIN).stream()
              .filter(
                  s -> s.startNanos() >= replay.startNanos() && s.endNanos() <= replay.endNanos())
              .toList();
      assertEquals(replay.kernels(), inside, replay.name());
      assertEquals(List.of("double", "sum", "copyToHost"), names(inside), replay.name());
      for (Span other : timeline.spansOf(MAIN)) {
        assertTrue(
            inside.contains(other)
                || other.endNanos() <= replay.startNanos()
                || other.startNanos() >= replay.endNanos(),
            other + " overlaps " + replay.name() + " without being inside it");
      }
    }
    assertEquals(2_000, replays.get(0).startNanos());
    assertEquals(4_500, replays.get(0).endNanos());
    assertEquals(4_600, replays.get(1).startNanos());
    assertEquals(6_200, replays.get(1).endNanos());
    assertEquals(List.of(false, true), replays.stream().map(ReplaySpan::failed).toList());
  }

  @Test
  void aReplayThatEndsBeforeItIsLaunchedIsRejectedNamingBoth() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> new GraphReplay(0, 65, 3, 1, 1_000, 999, false));
    assertEquals("replay 1 of graph 3 ends at 999 before it was launched at 1000", e.getMessage());
  }

  @Test
  void aReplaySpanWithoutKernelsIsRejected() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> new ReplaySpan(0, 65, 3, 1, false, List.of()));
    assertEquals("replay 1 of graph 3 has no kernels to span", e.getMessage());
  }
}
