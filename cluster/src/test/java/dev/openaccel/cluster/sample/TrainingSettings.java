package dev.openaccel.cluster.sample;

import java.nio.ByteBuffer;

/**
 * What the driver tells every member before the training starts (broadcast as {@link #BYTES} bytes
 * of int64): the number of SGD steps, the model's features, each shard's samples, the batch each
 * step takes from a shard, the data set's seed, the learning rate, and which rank halts its JVM at
 * which step ({@code haltRank} -1: none), the demonstration of a worker killed mid-training.
 *
 * @param steps SGD steps, at least 1
 * @param features input features of the logistic regression (weights: features + 1 with the bias)
 * @param samples samples in each member's shard
 * @param batch samples per step and member, 1 to {@code samples}
 * @param seed the synthetic data set's seed
 * @param learningRate the SGD step size, positive and finite
 * @param haltRank the rank that halts its JVM, or -1
 * @param haltStep the step at which it halts, before computing it: 0 to steps - 1
 */
public record TrainingSettings(
    int steps,
    int features,
    int samples,
    int batch,
    long seed,
    double learningRate,
    int haltRank,
    int haltStep) {

  /** The size of the settings on the wire: eight int64 elements. */
  public static final int BYTES = 8 * Long.BYTES;

  /** The sample's default run: 200 steps, 64 features, shards of 4096 samples, batches of 128. */
  public static TrainingSettings defaults() {
    return new TrainingSettings(200, 64, 4096, 128, 42, 0.5, -1, 0);
  }

  /**
   * @throws IllegalArgumentException naming the value that is out of range
   */
  public TrainingSettings {
    check(steps >= 1, "steps", steps, "at least 1");
    check(features >= 1 && features <= 1 << 20, "features", features, "1 to 2^20");
    check(samples >= 1, "samples", samples, "at least 1");
    check(
        (long) samples * features <= 1 << 26,
        "samples x features",
        (long) samples * features,
        "at most 2^26");
    check(batch >= 1 && batch <= samples, "batch", batch, "1 to samples (" + samples + ")");
    check(
        learningRate > 0 && Double.isFinite(learningRate),
        "learning rate",
        learningRate,
        "positive and finite");
    check(haltRank >= -1, "halt rank", haltRank, "-1 (none) or a rank");
    check(
        haltRank == -1 || (haltStep >= 0 && haltStep < steps),
        "halt step",
        haltStep,
        "0 to steps - 1 (" + (steps - 1) + ")");
  }

  /** These settings with {@code steps} steps. */
  public TrainingSettings withSteps(int steps) {
    return new TrainingSettings(
        steps, features, samples, batch, seed, learningRate, haltRank, haltStep);
  }

  /** These settings where {@code rank} halts its JVM at {@code step}. */
  public TrainingSettings withHalt(int rank, int step) {
    return new TrainingSettings(steps, features, samples, batch, seed, learningRate, rank, step);
  }

  /** The settings as {@link #BYTES} bytes, as int64 elements in {@link ByteBuffer}'s order. */
  public byte[] toBytes() {
    return ByteBuffer.allocate(BYTES)
        .putLong(steps)
        .putLong(features)
        .putLong(samples)
        .putLong(batch)
        .putLong(seed)
        .putLong(Double.doubleToLongBits(learningRate))
        .putLong(haltRank)
        .putLong(haltStep)
        .array();
  }

  /** The settings {@link #toBytes} wrote, checked again. */
  public static TrainingSettings fromBytes(byte[] bytes) {
    ByteBuffer in = ByteBuffer.wrap(bytes);
    return new TrainingSettings(
        Math.toIntExact(in.getLong()),
        Math.toIntExact(in.getLong()),
        Math.toIntExact(in.getLong()),
        Math.toIntExact(in.getLong()),
        in.getLong(),
        Double.longBitsToDouble(in.getLong()),
        Math.toIntExact(in.getLong()),
        Math.toIntExact(in.getLong()));
  }

  /** The weights: one per feature and the bias. */
  public int weights() {
    return features + 1;
  }

  private static void check(boolean ok, String name, Object value, String allowed) {
    if (!ok) {
      throw new IllegalArgumentException(name + " must be " + allowed + ", got " + value);
    }
  }
}
