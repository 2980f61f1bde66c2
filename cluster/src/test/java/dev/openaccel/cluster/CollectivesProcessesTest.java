package dev.openaccel.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The collectives across JVMs: three {@link CollectivesNode} processes on 127.0.0.1 (ports chosen
 * by the system) form a group and each runs every operation, all-reduces of every element type at
 * an odd count 3 does not divide and at one above the small-limit (so both the direct exchange and
 * the ring cross JVMs), against {@link Reference}; the all-reduce outputs are the same bits in all
 * three processes.
 */
class CollectivesProcessesTest {
  /** Starting three JVMs, joining the cluster, and running the operations, on a loaded machine. */
  private static final Duration RUN = Duration.ofSeconds(90);

  private static final Pattern OP =
      Pattern.compile("(?m)^op (.+?): (OK(?: crc ([0-9a-f]{8}))?.*|FAIL.*)$");

  private final List<NodeProcess> processes = new ArrayList<>();

  @AfterEach
  void killWhatStillRuns() throws InterruptedException {
    for (NodeProcess process : processes) {
      process.close();
    }
  }

  @Test
  void threeJvmsRunEveryCollectiveAgainstTheReferenceWithBitIdenticalAllReduces() throws Exception {
    NodeProcess seed = start("node 0", "seed");
    String address = seed.awaitLine("node ", RUN).substring("node ".length());
    start("node 1", address);
    start("node 2", address);

    List<Map<String, String>> results = new ArrayList<>();
    for (NodeProcess process : processes) {
      assertEquals(0, process.awaitExit(RUN), process.output());
      Map<String, String> ops = new LinkedHashMap<>();
      Matcher op = OP.matcher(process.output());
      while (op.find()) {
        assertTrue(op.group(2).startsWith("OK"), process + ": " + op.group());
        ops.put(op.group(1), op.group(3));
      }
      assertTrue(
          process.output().contains("ops done: " + ops.size() + ", failed: 0"), process.output());
      results.add(ops);
    }

    Map<String, String> first = results.get(0);
    for (ElementType type : ElementType.values()) {
      for (int count : new int[] {CollectivesNode.SMALL, CollectivesNode.large(type)}) {
        for (ReduceOp reduceOp : CollectivesNode.reduceOps(type)) {
          String name =
              "allReduce %s %s x%d"
                  .formatted(CollectivesNode.name(type), CollectivesNode.name(reduceOp), count);
          for (int node = 1; node < results.size(); node++) {
            assertEquals(first.get(name), results.get(node).get(name), name + " on node " + node);
          }
          assertTrue(first.get(name) != null, name + " missing: " + first.keySet());
        }
      }
    }
    for (String kind :
        List.of("broadcast ", "allGather ", "reduceScatter ", "reduce ", "sendRecv ", "barrier")) {
      assertTrue(
          first.keySet().stream().anyMatch(name -> name.startsWith(kind)),
          kind + "missing: " + first.keySet());
    }
    for (Map<String, String> ops : results) {
      assertEquals(first.keySet(), ops.keySet());
    }
  }

  private NodeProcess start(String name, String seed) {
    NodeProcess process = NodeProcess.start(name, CollectivesNode.class, seed);
    processes.add(process);
    return process;
  }
}
