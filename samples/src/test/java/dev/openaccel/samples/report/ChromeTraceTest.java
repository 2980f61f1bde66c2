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

  private static long nanos(JsonNode micros) {
    return Math.round(micros.asDouble() * 1_000);
  }
}
