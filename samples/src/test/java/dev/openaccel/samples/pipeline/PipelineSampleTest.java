package dev.openaccel.samples.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.openaccel.samples.SampleRun;
import dev.openaccel.samples.report.ChromeTrace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The pipeline sample run small ({@code --size 64 --tile 16}: 4 x 4 output tiles of 4 steps, on 2
 * devices with 2 compute streams each): its result, its report and the two timeline files.
 */
@Timeout(120)
class PipelineSampleTest {
  private static final int STEPS = 4;
  private static final int GEMMS = STEPS * STEPS * STEPS;
  private static final int COPY_IN_PER_DEVICE = 2 * 8 * STEPS; // A and B tiles of 8 output tiles
  private static final int COPY_OUT_PER_DEVICE = 8;
  private static final int KERNELS = GEMMS + 2 * (COPY_IN_PER_DEVICE + COPY_OUT_PER_DEVICE);
  private static final List<String> LANES =
      List.of("copy-in", "compute 0", "compute 1", "copy-out");

  @TempDir static Path dir;
  private static SampleRun run;

  @BeforeAll
  static void runSmall() throws Exception {
    run =
        SampleRun.of(
            PipelineSample::run,
            "--size",
            "64",
            "--tile",
            "16",
            "--devices",
            "2",
            "--streams",
            "2",
            "--out",
            dir.toString());
  }

  @Test
  void resultMatchesTheReference() {
    assertEquals(0, run.code(), run.out() + run.err());
    assertTrue(run.out().contains("\nresult: MATCH (max |C - reference| = "), run.out());
  }

  @Test
  void reportCountsTheKernelsOfEveryStreamOfEveryDevice() {
    Pattern row =
        Pattern.compile(
            "^  (copy-in|compute \\d|copy-out) \\(stream \\d+\\) +(\\d+) ", Pattern.MULTILINE);
    Map<String, List<Integer>> kernels = new HashMap<>();
    Matcher m = row.matcher(run.out());
    while (m.find()) {
      kernels.computeIfAbsent(m.group(1), k -> new ArrayList<>()).add(Integer.parseInt(m.group(2)));
    }
    assertEquals(List.of(COPY_IN_PER_DEVICE, COPY_IN_PER_DEVICE), kernels.get("copy-in"));
    assertEquals(List.of(16, 16), kernels.get("compute 0"));
    assertEquals(List.of(16, 16), kernels.get("compute 1"));
    assertEquals(List.of(COPY_OUT_PER_DEVICE, COPY_OUT_PER_DEVICE), kernels.get("copy-out"));
  }

  @Test
  void reportStatesDeviceTimesAndOverlap() {
    for (String device : List.of("openreg:0", "openreg:1")) {
      assertTrue(run.out().contains("\n" + device + "  device time "), run.out());
    }
    assertEquals(2, run.out().split("\n  overlap: streams were busy ", -1).length - 1, run.out());
    assertTrue(run.out().contains("\nall devices: "), run.out());
    assertTrue(run.out().contains("timeline: " + dir.resolve("timeline.json")), run.out());
  }

  @Test
  void traceNamesADeviceProcessAndAStreamThreadForEveryLane() throws Exception {
    JsonNode events =
        new ObjectMapper().readTree(dir.resolve("timeline.json").toFile()).get("traceEvents");
    Map<Integer, String> processes = new HashMap<>();
    Map<Integer, List<String>> threads = new HashMap<>();
    for (JsonNode e : events) {
      if (e.get("ph").asText().equals("M") && e.get("name").asText().equals("process_name")) {
        processes.put(e.get("pid").asInt(), e.get("args").get("name").asText());
      }
      if (e.get("ph").asText().equals("M") && e.get("name").asText().equals("thread_name")) {
        String label =
            e.get("args").get("name").asText().replaceAll(" \\(stream \\d+, [^)]*\\)$", "");
        threads.computeIfAbsent(e.get("pid").asInt(), p -> new ArrayList<>()).add(label);
      }
    }
    assertEquals(Map.of(1, "openreg:0", 2, "openreg:1"), processes);
    assertEquals(Map.of(1, LANES, 2, LANES), threads);
  }

  @Test
  void traceHasOneCompleteEventPerKernelOnANamedTrack() throws Exception {
    JsonNode events =
        new ObjectMapper().readTree(dir.resolve("timeline.json").toFile()).get("traceEvents");
    Set<String> named = new HashSet<>();
    List<JsonNode> complete = new ArrayList<>();
    for (JsonNode e : events) {
      if (e.get("name").asText().equals("thread_name")) {
        named.add(e.get("pid").asInt() + "/" + e.get("tid").asLong());
      } else if (e.get("ph").asText().equals("X")) {
        complete.add(e);
      }
    }
    assertEquals(KERNELS, complete.size());
    Set<String> gemms = new HashSet<>();
    for (JsonNode e : complete) {
      assertTrue(named.contains(e.get("pid").asInt() + "/" + e.get("tid").asLong()), e.toString());
      assertTrue(e.get("ts").asDouble() >= 0 && e.get("dur").asDouble() >= 0, e.toString());
      if (e.get("name").asText().startsWith("gemm ")) {
        gemms.add(e.get("name").asText());
      }
    }
    assertEquals(GEMMS, gemms.size(), "one gemm per output tile and step: " + gemms);
  }

  @Test
  void kernelsOfOneStreamNeverOverlapInTheTrace() throws Exception {
    JsonNode events =
        new ObjectMapper().readTree(dir.resolve("timeline.json").toFile()).get("traceEvents");
    Map<String, List<double[]>> lanes = new HashMap<>();
    for (JsonNode e : events) {
      if (e.get("ph").asText().equals("X")) {
        lanes
            .computeIfAbsent(
                e.get("pid").asInt() + "/" + e.get("tid").asLong(), k -> new ArrayList<>())
            .add(new double[] {e.get("ts").asDouble(), e.get("dur").asDouble()});
      }
    }
    for (List<double[]> lane : lanes.values()) {
      lane.sort((a, b) -> Double.compare(a[0], b[0]));
      for (int i = 1; i < lane.size(); i++) {
        assertTrue(
            lane.get(i)[0] >= lane.get(i - 1)[0] + lane.get(i - 1)[1] - 0.002,
            "overlap in a stream");
      }
    }
  }

  @Test
  void svgIsWellFormedWithALanePerStreamAndEveryKernelDrawn() throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setNamespaceAware(true);
    Document svg = factory.newDocumentBuilder().parse(dir.resolve("timeline.svg").toFile());
    assertEquals("svg", svg.getDocumentElement().getLocalName());
    assertEquals("http://www.w3.org/2000/svg", svg.getDocumentElement().getNamespaceURI());

    List<String> texts = contents(svg.getElementsByTagName("text"));
    for (String lane : LANES) {
      assertEquals(2, texts.stream().filter(t -> t.startsWith(lane + " (stream ")).count(), lane);
    }
    assertTrue(
        texts.containsAll(List.of("openreg:0", "openreg:1", "gemm", "copyToDevice", "copyToHost")),
        texts.toString());
    assertTrue(texts.contains("time since the first kernel (ms)"), texts.toString());

    int drawn = 0;
    Pattern merged = Pattern.compile("^(\\d+) x \\S+: ");
    for (String title : contents(svg.getElementsByTagName("title"))) {
      if (title.startsWith("wait ")) {
        continue; // a wait, not a kernel
      }
      Matcher m = merged.matcher(title);
      drawn += m.find() ? Integer.parseInt(m.group(1)) : 1;
    }
    assertEquals(KERNELS, drawn, "every kernel is drawn once, alone or in a merged run");
  }

  @Test
  void everyWaitInTheTraceHasOneFlowPairAndEachDeviceAMemoryCounter() throws Exception {
    JsonNode events =
        new ObjectMapper().readTree(dir.resolve("timeline.json").toFile()).get("traceEvents");
    Map<String, Integer> phases = new HashMap<>();
    Map<Long, String> flows = new HashMap<>();
    Set<Integer> counted = new HashSet<>();
    for (JsonNode e : events) {
      String ph = e.get("ph").asText();
      phases.merge(ph, 1, Integer::sum);
      if (ph.equals("s") || ph.equals("f")) {
        flows.merge(e.get("id").asLong(), ph, String::concat);
      } else if (ph.equals("C")) {
        assertEquals(ChromeTrace.MEMORY, e.get("name").asText());
        assertTrue(e.get("args").get("MiB").asDouble() >= 0, e.toString());
        counted.add(e.get("pid").asInt());
      }
    }
    int waits = phases.getOrDefault("B", 0);
    assertEquals(waits, phases.getOrDefault("E", 0), "every wait slice ends");
    assertEquals(waits, flows.size(), "one flow per wait");
    flows.forEach((id, ends) -> assertEquals("sf", ends, "flow " + id + " starts, then finishes"));
    assertEquals(Set.of(1, 2), counted, "a memory counter per device");
  }

  @Test
  void everyDrawnWaitHasOneArrow() throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    Document svg = factory.newDocumentBuilder().parse(dir.resolve("timeline.svg").toFile());
    int waits = 0;
    NodeList rects = svg.getElementsByTagName("rect");
    for (int i = 0; i < rects.getLength(); i++) {
      waits += ((Element) rects.item(i)).getAttribute("class").equals("wait") ? 1 : 0;
    }
    int arrows = 0;
    NodeList lines = svg.getElementsByTagName("line");
    for (int i = 0; i < lines.getLength(); i++) {
      Element line = (Element) lines.item(i);
      if (line.getAttribute("class").equals("dependency")) {
        assertEquals("url(#arrow)", line.getAttribute("marker-end"));
        arrows++;
      }
    }
    assertEquals(waits, arrows);
  }

  @Test
  void existingTimelineFilesAreReplaced(@TempDir Path other) throws Exception {
    Files.writeString(other.resolve("timeline.json"), "stale");
    Files.writeString(other.resolve("timeline.svg"), "stale");
    SampleRun again =
        SampleRun.of(
            PipelineSample::run, "--size", "32", "--tile", "16", "--out", other.toString());
    assertEquals(0, again.code(), again.err());
    assertTrue(Files.readString(other.resolve("timeline.json")).startsWith("{\"displayTimeUnit\""));
    assertTrue(Files.readString(other.resolve("timeline.svg")).startsWith("<?xml"));
  }

  @Test
  void aWrongResultIsReportedAsAMismatchWithExitCodeOne() {
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    int code =
        PipelineSample.check(
            new float[] {1, 2, 3, 4},
            new float[] {1, 2, 3, 5},
            2,
            new java.io.PrintStream(bytes, true));
    assertEquals(1, code);
    assertEquals(
        "result: MISMATCH (max |C - reference| = 1.00, tolerance 2.00e-05)",
        bytes.toString().strip());
  }

  private static List<String> contents(NodeList nodes) {
    List<String> list = new ArrayList<>();
    for (int i = 0; i < nodes.getLength(); i++) {
      list.add(nodes.item(i).getTextContent());
    }
    return list;
  }
}
