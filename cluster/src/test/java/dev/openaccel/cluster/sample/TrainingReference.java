package dev.openaccel.cluster.sample;

import dev.openaccel.cluster.ElementType;
import dev.openaccel.cluster.ReduceOp;
import dev.openaccel.cluster.Reference;
import java.nio.ByteBuffer;
import java.nio.FloatBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The single-process run the data-parallel training must match bit for bit: in one thread, with
 * host buffers, every member's shard and gradient computed by the same {@link LogisticRegression}
 * methods the kernels run, and the gradients averaged by {@link Reference#allReduce}, element by
 * element in the order the collectives document (segment k is {@code ((g[k+1] + g[k+2]) + ...) +
 * g[k]}, ranks modulo the member count, then divided by it).
 */
public final class TrainingReference {
  private TrainingReference() {}

  /** The final weights and the losses, as bytes: what every member ends with. */
  public record Run(byte[] weights, byte[] losses) {}

  /** Trains {@code members} shards with {@code settings}, as the members together would. */
  public static Run run(TrainingSettings settings, int members) {
    int features = settings.features();
    List<FloatBuffer[]> shards = new ArrayList<>();
    for (int rank = 0; rank < members; rank++) {
      FloatBuffer x = floats(settings.samples() * features);
      FloatBuffer y = floats(settings.samples());
      LogisticRegression.shard(settings.seed(), rank, x, y);
      shards.add(new FloatBuffer[] {x, y});
    }
    ByteBuffer weights = ByteBuffer.allocate(4 * settings.weights());
    ByteBuffer losses = ByteBuffer.allocate(4 * settings.steps());
    float rate = (float) settings.learningRate();
    for (int step = 0; step < settings.steps(); step++) {
      List<byte[]> gradients = new ArrayList<>();
      for (FloatBuffer[] shard : shards) {
        ByteBuffer gradient = ByteBuffer.allocate(4 * (settings.weights() + 1));
        LogisticRegression.backward(
            shard[0],
            shard[1],
            weights.asFloatBuffer(),
            gradient.asFloatBuffer(),
            step,
            settings.batch());
        gradients.add(gradient.array());
      }
      byte[] average = Reference.allReduce(gradients, ElementType.FLOAT32, ReduceOp.AVERAGE);
      LogisticRegression.update(
          weights.asFloatBuffer(),
          ByteBuffer.wrap(average).asFloatBuffer(),
          losses.asFloatBuffer(),
          step,
          rate);
    }
    return new Run(weights.array(), losses.array());
  }

  private static FloatBuffer floats(int count) {
    return ByteBuffer.allocate(4 * count).asFloatBuffer();
  }
}
