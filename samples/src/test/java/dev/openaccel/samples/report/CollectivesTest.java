package dev.openaccel.samples.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.trace.TraceEvent;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Collective operations paired with the pieces they sent, from a known sequence of trace events,
 * and laid out in rows.
 */
class CollectivesTest {
  static final Device DEVICE = Device.parse("openreg:0");
  static final Track MAIN = new Track(0, "openreg:0", 65, "main");

  /**
   * What rank 0 of a three-member group 'grads' traces for two all-reduces of a 3 KiB buffer on
   * stream 65, in the order the cluster module publishes it (see its {@code StreamSlot}): the input
   * copied to the host, the operation's own kernel, then the operation runs (a ring of three: four
   * steps of one 1 KiB piece each, 2(n-1)/n of the buffer), the result copied back and the result
   * kernel, and only then the operation's end. The second all-reduce sends one piece and times out;
   * a piece of it handed over after it ended arrives last. A kernel of stream 66 runs meanwhile,
   * and a kernel on stream 65 follows.
   */
  static List<TraceEvent> twoAllReduces() {
    List<TraceEvent> events = new ArrayList<>();
    kernel(events, 65, "copyToHost", 0, 2_000);
    kernel(events, 65, "allReduce #3 of group 'grads' on rank 0", 2_000, 2_500);
    step(events, 3, 0, 3_100, 4_000);
    kernel(events, 66, "forward", 3_500, 6_000);
    step(events, 3, 1, 5_000, 5_800);
    step(events, 3, 2, 7_000, 7_600);
    step(events, 3, 3, 9_000, 9_500);
    kernel(events, 65, "copyToDevice", 10_000, 11_000);
    kernel(events, 65, "allReduce #3 of group 'grads' on rank 0 result", 11_000, 11_200);
    events.add(
        new TraceEvent.CollectiveFinished(
            DEVICE, 65, "grads", "allReduce", 3, 3072, false, 3_000, 11_400));
    kernel(events, 65, "copyToHost", 12_000, 13_000);
    kernel(events, 65, "allReduce #4 of group 'grads' on rank 0", 13_000, 13_200);
    step(events, 4, 0, 13_600, 14_000);
    kernel(events, 65, "allReduce #4 of group 'grads' on rank 0 result", 19_900, 20_100);
    events.add(
        new TraceEvent.CollectiveFinished(
            DEVICE, 65, "grads", "allReduce", 4, 3072, true, 13_500, 20_200));
    step(events, 4, 1, 19_000, 20_500); // handed over after the operation ended
    kernel(events, 65, "sgd", 21_000, 22_000);
    return events;
  }

  /** What {@link #twoAllReduces()} becomes. */
  static TraceLog twoAllReducesLog() {
    TraceLogBuilder builder = new TraceLogBuilder();
    twoAllReduces().forEach(builder::add);
    return builder.log();
  }

  private static void kernel(
      List<TraceEvent> events, long stream, String name, long from, long to) {
    events.add(new TraceEvent.KernelStarted(DEVICE, stream, name, from));
    events.add(new TraceEvent.KernelFinished(DEVICE, stream, name, false, to));
  }

  private static void step(List<TraceEvent> events, long number, int step, long from, long to) {
    events.add(
        new TraceEvent.CollectiveStep(
            DEVICE, 65, "grads", "allReduce", number, step, 0, 1024, from, to));
  }

  static Collective overlapping() {
    return new Collective(
        0,
        65,
        "grads",
        "broadcast",
        7,
        4096,
        false,
        0,
        1_000,
        List.of(
            new CollectivePiece(0, 0, 1024, 100, 500),
            new CollectivePiece(0, 1, 1024, 110, 600),
            new CollectivePiece(0, 2, 1024, 120, 700),
            new CollectivePiece(0, 3, 1024, 550, 800)));
  }

  @Test
  void eachOperationIsPairedWithThePiecesItSentInsideItsSpan() {
    TraceLog log = twoAllReducesLog();
    assertEquals(9, log.spans().size(), "kernels still paired: " + log.spans());
    List<Collective> collectives = log.collectives();
    assertEquals(
        List.of("allReduce #3 'grads'", "allReduce #4 'grads'"),
        collectives.stream().map(Collective::name).toList());
    Collective first = collectives.get(0);
    assertEquals(
        List.of(0, 65L, 3072L, false),
        List.of(first.device(), first.streamId(), first.bytes(), first.failed()));
    assertEquals(
        List.of("step 0 piece 0", "step 1 piece 0", "step 2 piece 0", "step 3 piece 0"),
        first.pieces().stream().map(CollectivePiece::name).toList());
    assertEquals(4096, first.pieces().stream().mapToLong(CollectivePiece::bytes).sum());
    assertEquals(3_000, first.startNanos());
    assertEquals(11_400, first.endNanos());
    Collective failed = collectives.get(1);
    assertEquals(true, failed.failed());
    assertEquals(
        List.of("step 0 piece 0"),
        failed.pieces().stream().map(CollectivePiece::name).toList(),
        "the piece handed over after it ended is left out");
  }

  @Test
  void theTimelineKeepsOperationsOnTheirStreamsLaneByStart() {
    Timeline timeline = new Timeline(List.of(MAIN), twoAllReducesLog());
    assertEquals(timeline.collectives(), timeline.collectivesOf(MAIN));
    assertEquals(2, timeline.collectives().size());
    assertEquals(MAIN, timeline.trackOf(timeline.collectives().get(0)));
    Track other = timeline.tracks().get(1);
    assertEquals("stream 66", other.label());
    assertEquals(List.of(), timeline.collectivesOf(other));
  }

  @Test
  void anOperationOnAStreamWithoutKernelsGetsALaneAndSetsTheTimeRange() {
    Collective only = overlapping();
    Timeline timeline =
        new Timeline(
            List.of(), new TraceLog(List.of(), List.of(), List.of(), List.of(), List.of(only)));
    assertEquals(List.of(new Track(0, "device 0", 65, "stream 65")), timeline.tracks());
    assertEquals(0, timeline.originNanos());
    assertEquals(1_000, timeline.endNanos());
  }

  @Test
  void piecesInFlightAtOnceGoToSeparateRowsAndEachRowNeverOverlaps() {
    List<List<String>> rows =
        overlapping().rows().stream()
            .map(row -> row.stream().map(CollectivePiece::name).toList())
            .toList();
    assertEquals(
        List.of(
            List.of("step 0 piece 0", "step 0 piece 3"),
            List.of("step 0 piece 1"),
            List.of("step 0 piece 2")),
        rows);
  }

  @Test
  void aPieceOutsideItsOperationIsRejectedNamingBoth() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new Collective(
                    0,
                    65,
                    "grads",
                    "allReduce",
                    4,
                    3072,
                    true,
                    13_500,
                    20_200,
                    List.of(new CollectivePiece(1, 0, 1024, 19_000, 20_500))));
    assertEquals(
        "step 1 piece 0 (19000 .. 20500) lies outside allReduce #4 (13500 .. 20200)",
        e.getMessage());
  }

  @Test
  void anOperationOrPieceThatEndsBeforeItStartsIsRejected() {
    IllegalArgumentException operation =
        assertThrows(
            IllegalArgumentException.class,
            () -> new Collective(0, 65, "g", "barrier", 1, 0, false, 10, 9, List.of()));
    assertEquals("barrier #1 ends at 9 before it starts at 10", operation.getMessage());
    IllegalArgumentException piece =
        assertThrows(IllegalArgumentException.class, () -> new CollectivePiece(2, 1, 8, 10, 9));
    assertEquals("piece 1 of step 2 was sent at 9 before it was ready at 10", piece.getMessage());
  }
}
