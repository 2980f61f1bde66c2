package dev.openaccel.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.cluster.sample.DataParallelTraining;
import dev.openaccel.cluster.sample.TrainingReference;
import dev.openaccel.cluster.sample.TrainingReport;
import dev.openaccel.cluster.sample.TrainingResult;
import dev.openaccel.cluster.sample.TrainingSettings;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/**
 * The data-parallel training sample on four nodes in this JVM (the driver and three workers): the
 * weights every member ends with are the single-process run's, bit for bit, and the model learns.
 */
class DataParallelTrainingTest {
  private static final TrainingSettings SMALL =
      new TrainingSettings(40, 16, 512, 32, 7, 0.5, -1, 0);

  @Test
  void everyMemberEndsWithTheSingleProcessRunsWeightsBitForBit() throws Exception {
    try (TestCluster cluster = TestCluster.start(4)) {
      List<String> nodes = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        nodes.add(cluster.node(i).selfNode());
      }
      ExecutorService workers = Executors.newFixedThreadPool(3);
      try {
        List<CompletableFuture<TrainingResult>> followed = new ArrayList<>();
        for (int i = 1; i < 4; i++) {
          DataParallelTraining training = new DataParallelTraining(cluster.node(i), nodes);
          followed.add(CompletableFuture.supplyAsync(() -> training.follow(step -> {}), workers));
        }
        TrainingResult driver = new DataParallelTraining(cluster.node(0), nodes).drive(SMALL);
        TrainingReference.Run reference = TrainingReference.run(SMALL, 4);

        assertArrayEquals(reference.weights(), driver.weights());
        assertArrayEquals(reference.losses(), driver.losses());
        assertEquals(-1, driver.firstDisagreeing(), "every member's weights, gathered");
        for (CompletableFuture<TrainingResult> worker : followed) {
          TrainingResult result = Groups.await(worker);
          assertEquals(SMALL, result.settings(), "the settings the driver broadcast");
          assertArrayEquals(reference.weights(), result.weights(), "rank " + result.rank());
        }
        assertTrue(
            driver.loss(SMALL.steps() - 1) < 0.8f * driver.loss(0),
            () -> "the loss fell from " + driver.loss(0) + " to " + driver.loss(SMALL.steps() - 1));

        ByteArrayOutputStream text = new ByteArrayOutputStream();
        assertTrue(
            TrainingReport.print(
                driver, reference, new PrintStream(text, true, StandardCharsets.UTF_8)));
        String report = text.toString(StandardCharsets.UTF_8);
        assertTrue(report.contains(TrainingReport.IDENTICAL), report);
        assertTrue(report.contains("the same bits on all 4 members"), report);
      } finally {
        workers.shutdownNow();
      }
    }
  }

  @Test
  void aDifferentMemberCountRoundsDifferentlyAndTheReportSaysFail() throws Exception {
    try (TestCluster cluster = TestCluster.start(1)) {
      List<String> nodes = List.of(cluster.node(0).selfNode());
      TrainingResult alone = new DataParallelTraining(cluster.node(0), nodes).drive(SMALL);
      assertArrayEquals(TrainingReference.run(SMALL, 1).weights(), alone.weights());

      // Against the run of two members (other shards, another order of sums) nothing matches.
      ByteArrayOutputStream text = new ByteArrayOutputStream();
      assertFalse(
          TrainingReport.print(
              alone,
              TrainingReference.run(SMALL, 2),
              new PrintStream(text, true, StandardCharsets.UTF_8)));
      String report = text.toString(StandardCharsets.UTF_8);
      assertTrue(report.contains("weights: FAIL: "), report);
      assertFalse(report.contains(TrainingReport.IDENTICAL), report);
    }
  }

  @Test
  void badSettingsAreRejectedNamingTheValue() {
    List<Runnable> bad =
        List.of(
            () -> SMALL.withSteps(0),
            () -> new TrainingSettings(10, 0, 512, 32, 7, 0.5, -1, 0),
            () -> new TrainingSettings(10, 16, 512, 513, 7, 0.5, -1, 0),
            () -> new TrainingSettings(10, 16, 512, 32, 7, Double.NaN, -1, 0),
            () -> SMALL.withHalt(1, 40));
    List<String> named = List.of("steps", "features", "batch", "learning rate", "halt step");
    for (int i = 0; i < bad.size(); i++) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, bad.get(i)::run);
      assertTrue(e.getMessage().startsWith(named.get(i) + " must be "), e.getMessage());
    }
    assertEquals(SMALL, TrainingSettings.fromBytes(SMALL.withHalt(2, 3).withHalt(-1, 0).toBytes()));
  }

  @Test
  void onlyTheDriverDrivesAndOnlyMembersTrain() {
    try (TestCluster cluster = TestCluster.start(2)) {
      List<String> nodes = List.of(cluster.node(0).selfNode(), cluster.node(1).selfNode());
      assertThrows(
          IllegalStateException.class,
          () -> new DataParallelTraining(cluster.node(1), nodes).drive(SMALL));
      assertThrows(
          IllegalStateException.class,
          () -> new DataParallelTraining(cluster.node(0), nodes).follow(step -> {}));
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> new DataParallelTraining(cluster.node(1), List.of(nodes.get(0))));
      assertTrue(e.getMessage().contains(cluster.node(1).selfNode()), e.getMessage());
    }
  }
}
