package dev.openaccel.cluster.sample;

import dev.openaccel.cluster.ClusterAccelerator;
import dev.openaccel.cluster.RemoteBuffer;
import dev.openaccel.cluster.RemoteDevice;
import dev.openaccel.cluster.RemoteStream;
import dev.openaccel.runtime.EventHandle;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The pipeline-parallel workload, driven from one node: batches go through "generate" on node 1,
 * "transform" on node 2 and "reduce" on the driver's node, each stage on a stream of its own node's
 * device, ordered only by interprocess events that cross nodes, the data copied between nodes.
 * Prints a report per stage (node, device, stream, kernels, busy time) and checks every batch's
 * result against the host's.
 */
public final class DistributedPipeline {
  private static final Duration WAIT = Duration.ofMinutes(2);

  private final ClusterAccelerator driver;
  private final List<String> nodes;
  private final int batches;
  private final int longs;

  /**
   * @param nodes the driver's node first, then the nodes of the first and second stage
   */
  public DistributedPipeline(
      ClusterAccelerator driver, List<String> nodes, int batches, int longs) {
    this.driver = driver;
    this.nodes = List.copyOf(nodes);
    this.batches = batches;
    this.longs = longs;
  }

  /** Runs the pipeline and prints the report; true if every batch's result matched. */
  public boolean run(PrintStream out) throws Exception {
    RemoteStream generate = null;
    RemoteStream transform = null;
    RemoteStream reduce = null;
    List<RemoteBuffer> sums = new ArrayList<>();
    long bytes = 8L * longs;
    long start = System.nanoTime();
    List<RemoteBuffer> scratch = new ArrayList<>();
    String step = "start";
    int batch = 0;
    try {
      generate = driver.newStream(device(1));
      transform = driver.newStream(device(2));
      reduce = driver.newStream(device(0));
      for (; batch < batches; batch++) {
        step = "allocate";
        RemoteBuffer raw = driver.allocate(device(1), bytes);
        RemoteBuffer moved = driver.allocate(device(2), bytes);
        RemoteBuffer last = driver.allocate(device(0), bytes);
        RemoteBuffer sum = driver.allocate(device(0), 8);
        scratch.addAll(List.of(raw, moved, last));
        step = "generate";
        generate.launch("generate", ByteBuffer.allocate(8).putLong(batch).array(), raw);
        EventHandle generated = generate.recordEvent();
        step = "transform";
        transform.waitEvent(generated);
        driver.closeEvent(generated); // the wait has captured its record
        transform.copy(raw, moved);
        transform.launch("transform", new byte[0], moved);
        EventHandle transformed = transform.recordEvent();
        step = "reduce";
        reduce.waitEvent(transformed);
        driver.closeEvent(transformed);
        reduce.copy(moved, last);
        reduce.launch("reduce", new byte[0], last, sum);
        sums.add(sum);
      }
      step = "synchronize";
      if (!reduce.synchronize(WAIT)) {
        throw new IllegalStateException("the pipeline did not finish within " + WAIT);
      }
    } catch (RuntimeException failure) {
      // The one report of the failure: where it stopped and what had finished, no stack trace.
      out.printf(
          "FAILED at batch %d of %d, step %s, after %.1f ms: %s%n",
          batch, batches, step, (System.nanoTime() - start) / 1e6, failure.getMessage());
      out.printf(
          "batches completed: %d of %d%n", reduce == null ? 0 : completed(reduce, sums), batches);
      return false;
    }
    scratch.forEach(driver::free);
    double wallMs = (System.nanoTime() - start) / 1e6;
    int matched = 0;
    for (int b = 0; b < batches; b++) {
      long got = ByteBuffer.wrap(await(reduce.read(sums.get(b)))).getLong();
      if (got == PipelineKernels.expected(b, longs)) {
        matched++;
      }
    }
    out.printf(
        "OpenAccel distributed pipeline: %d nodes, %d batches of %d longs (%d KiB)%n",
        nodes.size(), batches, longs, bytes / 1024);
    out.printf(
        "%-10s %-36s %-10s %7s %8s %9s%n",
        "stage", "node", "device", "stream", "kernels", "busy ms");
    report(out, "generate", generate);
    report(out, "transform", transform);
    report(out, "reduce", reduce);
    out.printf(
        "wall time %.1f ms; %d copies between nodes of %d KiB each%n",
        wallMs, 2 * batches, bytes / 1024);
    boolean ok = matched == batches;
    out.printf(
        "result check: %d/%d batch sums match the host's: %s%n",
        matched, batches, ok ? "OK" : "FAILED");
    return ok;
  }

  private void report(PrintStream out, String stage, RemoteStream stream) throws Exception {
    RemoteBuffer stats = driver.allocate(stream.device(), 16);
    stream.launch("stats", new byte[0], stats);
    ByteBuffer counters = ByteBuffer.wrap(await(stream.read(stats)));
    out.printf(
        "%-10s %-36s %-10s %7d %8d %9.1f%n",
        stage,
        stream.node(),
        stream.device().device(),
        stream.id(),
        counters.getLong(0),
        counters.getLong(8) / 1e6);
    driver.free(stats);
  }

  /** How many batches, in order, have a sum that can be read back and matches the host's. */
  private int completed(RemoteStream reduce, List<RemoteBuffer> sums) {
    int done = 0;
    try {
      for (RemoteBuffer sum : sums) {
        byte[] got = reduce.read(sum).toCompletableFuture().get(10, TimeUnit.SECONDS);
        if (ByteBuffer.wrap(got).getLong() != PipelineKernels.expected(done, longs)) {
          break;
        }
        done++;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException | RuntimeException unreadable) {
      // the batches from this one on did not finish: the count so far is the answer
    }
    return done;
  }

  private RemoteDevice device(int stage) {
    return RemoteDevice.parse(nodes.get(stage) + "/openreg:0");
  }

  private static byte[] await(java.util.concurrent.CompletionStage<byte[]> stage) throws Exception {
    return stage.toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS);
  }
}
