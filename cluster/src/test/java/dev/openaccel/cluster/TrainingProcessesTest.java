package dev.openaccel.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.cluster.sample.TrainingNode;
import dev.openaccel.cluster.sample.TrainingReport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The data-parallel training sample across JVMs, as {@code cluster/run-training} runs it: a driver
 * and two workers, each a {@code java} process of its own on 127.0.0.1 (ports chosen by the
 * system), a short training of a small model. It ends with weights bit-identical to the
 * single-process run; a worker that halts its JVM mid-training (as {@code kill -9} would end it)
 * makes the others fail and exit, naming the lost node and the step.
 */
class TrainingProcessesTest {
  /** Starting a JVM, joining the cluster, and training a few steps, on a loaded machine. */
  private static final Duration RUN = Duration.ofSeconds(90);

  /**
   * The failure detector's and Split Brain Resolver's bounds, and stopping the node, with slack.
   */
  private static final Duration DOWNING = Duration.ofSeconds(45);

  private static final String[] MODEL = {
    "--workers", "2", "--features", "8", "--samples", "256", "--batch", "16"
  };

  private final List<NodeProcess> processes = new ArrayList<>();

  @AfterEach
  void killWhatStillRuns() throws InterruptedException {
    for (NodeProcess process : processes) {
      process.close();
    }
  }

  @Test
  void threeJvmsTrainToTheSingleProcessRunsWeightsBitForBit() throws Exception {
    NodeProcess driver = driver("--steps", "20");
    List<NodeProcess> workers = workers(driver);

    assertEquals(0, driver.awaitExit(RUN), driver.output());
    String report = driver.output();
    assertTrue(report.contains(TrainingReport.IDENTICAL), report);
    assertTrue(report.contains("the same bits on all 3 members"), report);
    Matcher crc = Pattern.compile("final weights: 9 float32, CRC32 ([0-9a-f]{8})").matcher(report);
    assertTrue(crc.find(), report);
    for (NodeProcess worker : workers) {
      assertEquals(0, worker.awaitExit(RUN), worker.output());
      assertTrue(
          worker.output().contains("20 steps done, final weights CRC32 " + crc.group(1)),
          worker.output());
    }
  }

  @Test
  void aWorkerKilledMidTrainingMakesTheOthersFailNamingItAndTheStep() throws Exception {
    int kill = 5;
    NodeProcess driver = driver("--steps", "200", "--kill-worker-at", "" + kill);
    List<NodeProcess> workers = workers(driver);
    // The last rank halts: the worker with the larger address (the members after the driver are
    // in sorted order).
    String[] addresses = new String[2];
    for (int i = 0; i < 2; i++) {
      addresses[i] =
          workers.get(i).awaitLine("worker node ", RUN).substring("worker node ".length());
    }
    int halted = addresses[0].compareTo(addresses[1]) > 0 ? 0 : 1;
    NodeProcess lost = workers.get(halted);
    assertEquals(TrainingNode.HALTED, lost.awaitExit(RUN), lost.output());
    assertTrue(lost.output().contains("halting this JVM at step " + kill), lost.output());

    for (NodeProcess survivor : List.of(driver, workers.get(1 - halted))) {
      assertEquals(1, survivor.awaitExit(DOWNING), survivor.output());
      String output = survivor.output();
      Matcher failed =
          Pattern.compile(
                  "training failed at step (\\d+) of 200: allReduce #(\\d+) of group 'grads'")
              .matcher(output);
      assertTrue(failed.find(), output);
      int step = Integer.parseInt(failed.group(1));
      assertEquals(step, Integer.parseInt(failed.group(2)), output);
      // The lost worker finished step kill - 1 before halting, but its last bytes of that step may
      // not have left its JVM: its right neighbour in the ring can fail there.
      assertTrue(step == kill || step == kill - 1, output);
      assertTrue(output.contains("node " + addresses[halted] + " left the cluster"), output);
    }
  }

  private NodeProcess driver(String... args) throws InterruptedException {
    List<String> all = new ArrayList<>(List.of("driver", "--port", "0"));
    all.addAll(List.of(MODEL));
    all.addAll(List.of(args));
    NodeProcess driver =
        NodeProcess.start("driver", TrainingNode.class, all.toArray(String[]::new));
    processes.add(driver);
    return driver;
  }

  private List<NodeProcess> workers(NodeProcess driver) throws InterruptedException {
    String address = driver.awaitLine("driver node ", RUN).substring("driver node ".length());
    List<NodeProcess> workers = new ArrayList<>();
    for (int i = 1; i <= 2; i++) {
      NodeProcess worker =
          NodeProcess.start(
              "worker " + i,
              TrainingNode.class,
              "worker",
              "--driver",
              address,
              "--port",
              "0",
              "--workers",
              "2");
      processes.add(worker);
      workers.add(worker);
    }
    return workers;
  }
}
