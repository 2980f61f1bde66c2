package dev.openaccel.samples.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Chrome trace-event JSON of a known timeline. */
class ChromeTraceTest {
  private static final Track COPY = new Track(0, "openreg:0", 65, 1, "copy-in");
  private static final Track COMPUTE = new Track(0, "openreg:0", 66, "compute 0");
  private static final Track OTHER = new Track(1, "openreg:1", 65, "compute 0");

  private static JsonNode events(Timeline timeline) throws Exception {
    JsonNode root = new ObjectMapper().readTree(ChromeTrace.json(timeline));
    assertEquals("ms", root.get("displayTimeUnit").asText());
    return root.get("traceEvents");
  }

  private static List<JsonNode> phase(JsonNode events, String ph) {
    List<JsonNode> list = new ArrayList<>();
    events.forEach(
        e -> {
          if (e.get("ph").asText().equals(ph)) list.add(e);
        });
    return list;
  }

  @Test
  void kernelsAreCompleteEventsInMicrosecondsSinceTheFirstKernel() throws Exception {
    Timeline timeline =
        new Timeline(
            List.of(COPY, COMPUTE, OTHER),
            List.of(
                new Span(0, 66, "gemm C[0,0] k=0", 1_002_500, 1_007_000, false),
                new Span(0, 65, "copyToDevice", 1_000_000, 1_001_250, false),
                new Span(1, 65, "gemm C[0,1] k=0", 1_003_000, 1_004_000, true)));
    List<JsonNode> complete = phase(events(timeline), "X");
    assertEquals(3, complete.size());
    JsonNode copy = complete.get(0); // sorted by start
    assertEquals("copyToDevice", copy.get("name").asText());
    assertEquals("copyToDevice", copy.get("cat").asText());
    assertEquals(0.0, copy.get("ts").asDouble(), 0.0);
    assertEquals(1.25, copy.get("dur").asDouble(), 0.0);
    assertEquals(1, copy.get("pid").asInt());
    assertEquals(65, copy.get("tid").asLong());
    JsonNode gemm = complete.get(1);
    assertEquals("gemm", gemm.get("cat").asText());
    assertEquals(2.5, gemm.get("ts").asDouble(), 0.0);
    assertEquals(4.5, gemm.get("dur").asDouble(), 0.0);
    JsonNode failed = complete.get(2);
    assertEquals(2, failed.get("pid").asInt());
    assertEquals(true, failed.get("args").get("failed").asBoolean());
  }

  @Test
  void metadataNamesAndOrdersProcessesAndThreads() throws Exception {
    List<JsonNode> metadata =
        phase(events(new Timeline(List.of(COPY, COMPUTE, OTHER), List.of())), "M");
    List<String> described = new ArrayList<>();
    for (JsonNode m : metadata) {
      JsonNode args = m.get("args");
      String value = args.has("name") ? args.get("name").asText() : args.get("sort_index").asText();
      described.add(
          m.get("name").asText()
              + " "
              + m.get("pid").asInt()
              + "/"
              + m.get("tid").asLong()
              + " "
              + value);
    }
    assertEquals(
        List.of(
            "process_name 1/0 openreg:0",
            "process_sort_index 1/0 0",
            "process_name 2/0 openreg:1",
            "process_sort_index 2/0 1",
            "thread_name 1/65 copy-in (stream 65, openreg:0, priority 1)",
            "thread_sort_index 1/65 0",
            "thread_name 1/66 compute 0 (stream 66, openreg:0, priority 0)",
            "thread_sort_index 1/66 1",
            "thread_name 2/65 compute 0 (stream 65, openreg:1, priority 0)",
            "thread_sort_index 2/65 2"),
        described);
  }

  @Test
  void aWaitIsASliceWithAFlowFromTheKernelThatReleasedIt() throws Exception {
    Span copy = new Span(0, 65, "copyToDevice", 1_000_000, 1_004_000, false);
    Timeline timeline =
        new Timeline(
            List.of(COPY, COMPUTE),
            new TraceLog(
                List.of(
                    new Span(0, 66, "gemm k=0", 1_000_000, 1_001_000, false),
                    copy,
                    new Span(0, 66, "gemm k=1", 1_004_100, 1_005_000, false)),
                List.of(new Dependency(7, 1, 0, 65, 0, 66)),
                List.of(new MemorySample(0, 500_000, 1 << 20), new MemorySample(0, 1_005_000, 0))));
    JsonNode events = events(timeline);
    List<JsonNode> begin = phase(events, "B");
    List<JsonNode> end = phase(events, "E");
    assertEquals(1, begin.size());
    assertEquals(1, end.size());
    assertEquals("wait", begin.get(0).get("cat").asText());
    assertEquals(66, begin.get(0).get("tid").asLong());
    assertEquals(1.0, begin.get(0).get("ts").asDouble(), 0.0);
    assertEquals(4.1, end.get(0).get("ts").asDouble(), 1e-9);
    assertEquals(
        "copy-in (stream 65): copyToDevice", begin.get(0).get("args").get("released by").asText());

    JsonNode start = phase(events, "s").get(0);
    JsonNode finish = phase(events, "f").get(0);
    assertEquals(start.get("id").asLong(), finish.get("id").asLong());
    assertEquals(65, start.get("tid").asLong());
    assertEquals(66, finish.get("tid").asLong());
    assertEquals("e", finish.get("bp").asText());
    double flowStart = start.get("ts").asDouble();
    assertTrue(flowStart > 0 && flowStart < 4.0, "inside the copy: " + flowStart);
    double flowEnd = finish.get("ts").asDouble();
    assertTrue(flowEnd > 1.0 && flowEnd < 4.1, "inside the wait: " + flowEnd);

    List<JsonNode> counters = phase(events, "C");
    assertEquals(List.of(0.0, 5.0), counters.stream().map(c -> c.get("ts").asDouble()).toList());
    assertEquals(ChromeTrace.MEMORY, counters.get(0).get("name").asText());
    assertEquals(1.0, counters.get(0).get("args").get("MiB").asDouble(), 0.0);
    assertEquals(0.0, counters.get(1).get("args").get("MiB").asDouble(), 0.0);
  }

  @Test
  void namesWithQuotesBackslashesAndControlCharactersStayValidJson() throws Exception {
    String name = "say \"hi\" \\ to\n\ttab \u0001";
    Timeline timeline = new Timeline(List.of(COPY), List.of(new Span(0, 65, name, 0, 1, false)));
    assertEquals(name, phase(events(timeline), "X").get(0).get("name").asText());
  }

  @Test
  void aReplayIsACompleteEventOnItsStreamThatEnclosesExactlyItsKernels() throws Exception {
    Timeline timeline =
        new Timeline(List.of(ReplaysTest.MAIN, ReplaysTest.SIDE), ReplaysTest.twoReplays());
    JsonNode events = events(timeline);
    List<JsonNode> complete = phase(events, "X");
    List<JsonNode> replays =
        complete.stream().filter(e -> e.get("cat").asText().equals(ChromeTrace.REPLAY)).toList();
    assertEquals(2, replays.size());
    assertEquals("graph 3 replay 1", replays.get(0).get("name").asText());
    assertEquals("graph 3 replay 2", replays.get(1).get("name").asText());
    assertEquals(
        List.of(false, true),
        replays.stream().map(r -> r.get("args").get("failed").asBoolean()).toList());
    for (JsonNode replay : replays) {
      assertEquals(1, replay.get("pid").asInt());
      assertEquals(65, replay.get("tid").asLong());
      assertEquals(3, replay.get("args").get("kernels").asInt());
      assertEquals(3, replay.get("args").get("graph").asLong());
      long from = nanos(replay.get("ts"));
      long to = from + nanos(replay.get("dur"));
      List<String> inside = new ArrayList<>();
      for (JsonNode kernel : complete) {
        if (kernel == replay || kernel.get("tid").asLong() != 65) {
          continue;
        }
        long start = nanos(kernel.get("ts"));
        long end = start + nanos(kernel.get("dur"));
        if (start >= from && end <= to) {
          inside.add(kernel.get("name").asText());
        } else {
          assertTrue(end <= from || start >= to, kernel + " straddles " + replay);
        }
      }
      assertEquals(List.of("double", "sum", "copyToHost"), inside, replay.toString());
    }
    assertTrue(
        events.toString().indexOf("graph 3 replay 1") < events.toString().indexOf("\"double\""),
        "a replay precedes its kernels, so one that starts with it nests inside");
  }

  @Test
  void aCollectiveIsACompleteEventOnItsStreamWithItsPiecesNestedInside() throws Exception {
    Timeline timeline =
        new Timeline(List.of(CollectivesTest.MAIN), CollectivesTest.twoAllReducesLog());
    JsonNode events = events(timeline);
    List<JsonNode> complete = phase(events, "X");
    List<JsonNode> operations = category(complete, ChromeTrace.COLLECTIVE);
    assertEquals(
        List.of("allReduce #3 'grads'", "allReduce #4 'grads'"),
        operations.stream().map(e -> e.get("name").asText()).toList());
    JsonNode first = operations.get(0);
    assertEquals(List.of(1L, 65L), List.of(first.get("pid").asLong(), first.get("tid").asLong()));
    assertEquals(3.0, first.get("ts").asDouble(), 0.0); // microseconds since the first kernel
    assertEquals(8.4, first.get("dur").asDouble(), 1e-9);
    JsonNode args = first.get("args");
    assertEquals("grads", args.get("group").asText());
    assertEquals("allReduce", args.get("operation").asText());
    assertEquals(3, args.get("number").asLong());
    assertEquals(3072, args.get("bytes").asLong());
    assertEquals(false, args.get("failed").asBoolean());
    assertEquals(4, args.get("pieces").asInt());
    JsonNode failed = operations.get(1);
    assertEquals(true, failed.get("args").get("failed").asBoolean());
    assertEquals(13.5, failed.get("ts").asDouble(), 0.0);
    assertEquals(6.7, failed.get("dur").asDouble(), 1e-9);
    assertEquals(1, failed.get("args").get("pieces").asInt());

    List<JsonNode> pieces = category(complete, ChromeTrace.COLLECTIVE_STEP);
    assertEquals(
        List.of(
            "step 0 piece 0 @3.1+0.9 1024",
            "step 1 piece 0 @5.0+0.8 1024",
            "step 2 piece 0 @7.0+0.6 1024",
            "step 3 piece 0 @9.0+0.5 1024",
            "step 0 piece 0 @13.6+0.4 1024"),
        pieces.stream()
            .map(
                e ->
                    String.format(
                        java.util.Locale.ROOT,
                        "%s @%.1f+%.1f %d",
                        e.get("name").asText(),
                        e.get("ts").asDouble(),
                        e.get("dur").asDouble(),
                        e.get("args").get("bytes").asLong()))
            .toList());
    for (JsonNode piece : pieces) {
      assertEquals(65, piece.get("tid").asLong(), "all in one row: on the stream's thread");
      JsonNode around = piece.get("ts").asDouble() < 13 ? first : failed;
      assertTrue(inside(piece, around), piece + " inside " + around);
    }
    assertEquals(0, pieces.get(2).get("args").get("piece").asInt());
    assertEquals(2, pieces.get(2).get("args").get("step").asInt());
    String text = events.toString();
    assertTrue(
        text.indexOf("allReduce #3 'grads'") < text.indexOf("step 0 piece 0")
            && text.indexOf("step 0 piece 0") < text.indexOf("\"copyToHost\""),
        "an operation precedes its pieces, and they the kernels, so equal starts nest");
    assertNested(complete);
  }

  @Test
  void piecesInFlightAtOnceGoToThreadsOfTheirOwnRightAfterTheStreams() throws Exception {
    Collective broadcast = CollectivesTest.overlapping();
    Timeline timeline =
        new Timeline(
            List.of(CollectivesTest.MAIN, ReplaysTest.SIDE),
            new TraceLog(
                List.of(new Span(0, 66, "other", 0, 100, false)),
                List.of(),
                List.of(),
                List.of(),
                List.of(broadcast)));
    JsonNode events = events(timeline);
    List<String> threads = new ArrayList<>();
    for (JsonNode m : phase(events, "M")) {
      if (m.get("name").asText().equals("thread_name")) {
        threads.add(m.get("tid").asLong() + " " + m.get("args").get("name").asText());
      }
    }
    assertEquals(
        List.of(
            "65 main (stream 65, openreg:0, priority 0)",
            "67 main (stream 65, openreg:0, priority 0), collective pieces row 2",
            "68 main (stream 65, openreg:0, priority 0), collective pieces row 3",
            "66 side (stream 66, openreg:0, priority 0)"),
        threads);
    List<String> sortIndices = new ArrayList<>();
    for (JsonNode m : phase(events, "M")) {
      if (m.get("name").asText().equals("thread_sort_index")) {
        sortIndices.add(m.get("tid").asLong() + ":" + m.get("args").get("sort_index").asInt());
      }
    }
    assertEquals(List.of("65:0", "67:1", "68:2", "66:3"), sortIndices);
    List<JsonNode> complete = phase(events, "X");
    List<String> pieces =
        category(complete, ChromeTrace.COLLECTIVE_STEP).stream()
            .map(e -> e.get("tid").asLong() + " " + e.get("name").asText())
            .toList();
    assertEquals(
        List.of("65 step 0 piece 0", "65 step 0 piece 3", "67 step 0 piece 1", "68 step 0 piece 2"),
        pieces);
    assertNested(complete);
  }

  private static List<JsonNode> category(List<JsonNode> events, String category) {
    return events.stream().filter(e -> e.get("cat").asText().equals(category)).toList();
  }

  private static boolean inside(JsonNode inner, JsonNode outer) {
    long from = nanos(outer.get("ts"));
    long start = nanos(inner.get("ts"));
    return start >= from && start + nanos(inner.get("dur")) <= from + nanos(outer.get("dur"));
  }

  /**
   * Perfetto drops what does not nest: on each thread, two slices are disjoint or one holds the
   * other.
   */
  private static void assertNested(List<JsonNode> complete) {
    for (JsonNode a : complete) {
      for (JsonNode b : complete) {
        if (a == b
            || a.get("pid").asInt() != b.get("pid").asInt()
            || a.get("tid").asLong() != b.get("tid").asLong()) {
          continue;
        }
        long aFrom = nanos(a.get("ts"));
        long aTo = aFrom + nanos(a.get("dur"));
        long bFrom = nanos(b.get("ts"));
        long bTo = bFrom + nanos(b.get("dur"));
        assertTrue(
            aTo <= bFrom || bTo <= aFrom || inside(a, b) || inside(b, a),
            a + " and " + b + " overlap without nesting");
      }
    }
  }

  private static long nanos(JsonNode micros) {
    return Math.round(micros.asDouble() * 1_000);
  }
}
