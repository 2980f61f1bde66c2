package dev.openaccel.cluster;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.cluster.sample.DistributedPipeline;
import dev.openaccel.cluster.sample.PipelineKernels;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The distributed sample's pipeline, on three nodes in this JVM: it must keep working. */
class DistributedSampleTest {

  @Test
  void thePipelineSampleReportsEveryStageAndMatchingResults() throws Exception {
    try (TestCluster cluster = TestCluster.start(3)) {
      for (int i = 0; i < 3; i++) {
        new PipelineKernels().registerOn(cluster.node(i).kernels());
      }
      List<String> nodes =
          List.of(
              cluster.node(0).selfNode(), cluster.node(1).selfNode(), cluster.node(2).selfNode());
      ByteArrayOutputStream text = new ByteArrayOutputStream();
      boolean ok =
          new DistributedPipeline(cluster.node(0), nodes, 4, 4096)
              .run(new PrintStream(text, true, StandardCharsets.UTF_8));
      String report = text.toString(StandardCharsets.UTF_8);
      assertTrue(ok, report);
      assertTrue(report.contains("result check: 4/4 batch sums match the host's: OK"), report);
      for (String stage : List.of("generate", "transform", "reduce")) {
        assertTrue(report.contains(stage), report);
      }
      assertTrue(report.contains(cluster.node(2).selfNode()), report);
    }
  }

  @Test
  void aFailingPipelineReportsOnceWhatFinishedAndThrowsNothing() throws Exception {
    try (TestCluster cluster = TestCluster.start(1)) {
      new PipelineKernels().registerOn(cluster.node(0).kernels());
      String self = cluster.node(0).selfNode();
      String gone = "pekko://openaccel@127.0.0.1:1"; // no such member
      ByteArrayOutputStream text = new ByteArrayOutputStream();
      boolean ok =
          new DistributedPipeline(cluster.node(0), List.of(self, gone, self), 4, 4096)
              .run(new PrintStream(text, true, StandardCharsets.UTF_8));
      String report = text.toString(StandardCharsets.UTF_8);
      assertFalse(ok, report);
      assertTrue(report.contains("FAILED at batch 0 of 4, step start"), report);
      assertTrue(report.contains("batches completed: 0 of 4"), report);
    }
  }
}
