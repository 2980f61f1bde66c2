package dev.openaccel.cluster.sample;

import dev.openaccel.cluster.ElementType;
import dev.openaccel.cluster.ProcessGroup;
import dev.openaccel.cluster.ReduceOp;
import dev.openaccel.cluster.Work;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.KernelContext;
import dev.openaccel.runtime.Stream;
import java.nio.ByteBuffer;
import java.nio.FloatBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntConsumer;

/**
 * One member's part of the data-parallel training, all of it on one stream of its device: a kernel
 * generates the member's shard, then each step is three items with no host wait between them,
 *
 * <pre>
 *   backward kernel   gradient and loss of the step's batch at the current weights
 *   allReduce         the gradient buffer averaged over the members ("grads" group), in place
 *   update kernel     weights -= rate * averaged gradient; the averaged loss into losses[step]
 * </pre>
 *
 * The calling thread enqueues up to {@link #AHEAD} steps beyond the oldest step whose all-reduce
 * has not completed, and waits (bounded) for that one before enqueuing more: it paces the host and
 * finds the first step that failed. Owns: its buffers (the calling thread creates and closes them;
 * only the stream's kernels write their bytes).
 */
final class MemberTraining implements AutoCloseable {
  /** Steps the host may enqueue beyond the oldest one not completed. */
  static final int AHEAD = 4;

  /** The longest a step's all-reduce may take before the training gives up on it. */
  static final Duration STEP_TIMEOUT = Duration.ofSeconds(60);

  private final Stream stream;
  private final ProcessGroup grads;
  private final TrainingSettings settings;
  private final DeviceBuffer x;
  private final DeviceBuffer y;
  private final DeviceBuffer weights;
  private final DeviceBuffer gradient;
  private final DeviceBuffer losses;

  MemberTraining(
      Accelerator accelerator, Stream stream, ProcessGroup grads, TrainingSettings settings) {
    this.stream = stream;
    this.grads = grads;
    this.settings = settings;
    var device = stream.device();
    this.x = accelerator.allocate(device, 4L * settings.samples() * settings.features());
    this.y = accelerator.allocate(device, 4L * settings.samples());
    this.weights = accelerator.allocate(device, 4L * settings.weights());
    this.gradient = accelerator.allocate(device, 4L * (settings.weights() + 1));
    this.losses = accelerator.allocate(device, 4L * settings.steps());
  }

  /** The weights, float32: the features' then the bias. */
  DeviceBuffer weights() {
    return weights;
  }

  /** The mean loss over the members of each step, float32. */
  DeviceBuffer losses() {
    return losses;
  }

  /**
   * Generates the shard and starts from zero weights, then runs every step; calls {@code halt} with
   * the step if this rank is told to halt there, once the steps before it have completed.
   *
   * @return the nanoseconds from the first step enqueued to the last update done
   * @throws TrainingFailure naming the first step that failed or did not complete in time
   */
  long run(IntConsumer halt) {
    long seed = settings.seed();
    int rank = grads.rank();
    stream.launch(
        "shard", k -> LogisticRegression.shard(seed, rank, floats(k, 0), floats(k, 1)), x, y);
    stream.copyToDevice(ByteBuffer.allocate((int) weights.size()), weights);
    finish(stream, "before step 0 of " + settings.steps());
    long start = System.nanoTime();
    int steps = settings.steps();
    int batch = settings.batch();
    float rate = (float) settings.learningRate();
    List<Work> works = new ArrayList<>(steps);
    for (int t = 0; t < steps; t++) {
      if (rank == settings.haltRank() && t == settings.haltStep()) {
        finish(stream, "at step " + t + " of " + steps);
        halt.accept(t);
      }
      if (t >= AHEAD) {
        await(works.get(t - AHEAD), "at step " + (t - AHEAD) + " of " + steps);
      }
      int step = t;
      stream.launch(
          "backward",
          k ->
              LogisticRegression.backward(
                  floats(k, 0), floats(k, 1), floats(k, 2), floats(k, 3), step, batch),
          x,
          y,
          weights,
          gradient);
      works.add(grads.allReduce(stream, gradient, gradient, ElementType.FLOAT32, ReduceOp.AVERAGE));
      stream.launch(
          "update",
          k -> LogisticRegression.update(floats(k, 0), floats(k, 1), floats(k, 2), step, rate),
          weights,
          gradient,
          losses);
    }
    for (int t = Math.max(0, steps - AHEAD); t < steps; t++) {
      await(works.get(t), "at step " + t + " of " + steps);
    }
    finish(stream, "after step " + (steps - 1) + " of " + steps);
    return System.nanoTime() - start;
  }

  @Override
  public void close() {
    for (DeviceBuffer buffer : List.of(x, y, weights, gradient, losses)) {
      buffer.close();
    }
  }

  /**
   * Waits, bounded, until {@code stream} has run everything enqueued on it (its kernels included).
   *
   * @throws TrainingFailure naming {@code where} if something failed or it took too long
   */
  static void finish(Stream stream, String where) {
    try {
      stream
          .synchronizeAsync()
          .toCompletableFuture()
          .get(STEP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw new TrainingFailure(where, e.getCause());
    } catch (TimeoutException e) {
      throw new TrainingFailure(
          where, new TimeoutException(stream + " did not finish within " + STEP_TIMEOUT));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TrainingFailure(where, e);
    }
  }

  /**
   * Waits, bounded, until {@code work} has completed.
   *
   * @throws TrainingFailure naming {@code where} if it failed or took too long
   */
  static void await(Work work, String where) {
    try {
      if (!work.synchronize(STEP_TIMEOUT)) {
        throw new TrainingFailure(
            where, new TimeoutException(work + " did not complete within " + STEP_TIMEOUT));
      }
    } catch (DeviceExecutionException e) {
      throw new TrainingFailure(where, e);
    }
  }

  private static FloatBuffer floats(KernelContext context, int i) {
    return context.buffer(i).asFloatBuffer();
  }
}
