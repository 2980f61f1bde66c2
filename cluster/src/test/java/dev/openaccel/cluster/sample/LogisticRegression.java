package dev.openaccel.cluster.sample;

import java.nio.FloatBuffer;
import java.util.Random;

/**
 * The sample's model and data, as plain Java on float32 buffers: the kernels of every member run
 * these methods on views of their device buffers, and {@link TrainingReference} runs the same
 * methods on host buffers, so the two compute the same bits. Java's float arithmetic is strict and
 * {@link StrictMath} gives the same bits on every JVM; nothing here depends on timing or threads.
 *
 * <p>Model: logistic regression, {@code p = sigmoid(w . x + b)} with the bias {@code b} stored
 * after the feature weights. Data: shard {@code rank} of a synthetic set whose labels come from a
 * fixed random weight vector plus noise. A gradient buffer holds the weights' gradients, then the
 * batch's mean loss, so one all-reduce averages both.
 */
public final class LogisticRegression {
  private LogisticRegression() {}

  /**
   * Fills {@code x} (samples x features) and {@code y} (samples, 0 or 1) with shard {@code rank}.
   */
  public static void shard(long seed, int rank, FloatBuffer x, FloatBuffer y) {
    int samples = y.limit();
    int features = x.limit() / samples;
    Random truth = new Random(seed);
    float[] w = new float[features];
    for (int j = 0; j < features; j++) {
      w[j] = (float) truth.nextGaussian();
    }
    Random data = new Random(seed * 1_000_003 + rank + 1);
    for (int i = 0; i < samples; i++) {
      float z = 0.25f;
      for (int j = 0; j < features; j++) {
        float v = (float) data.nextGaussian();
        x.put(i * features + j, v);
        z += w[j] * v;
      }
      z += 2f * (float) data.nextGaussian(); // noise: the classes overlap, the loss stays above 0
      y.put(i, z > 0 ? 1f : 0f);
    }
  }

  /**
   * The mean gradient and loss of step {@code step}'s batch of the shard ({@code x}, {@code y}) at
   * the weights {@code w}, into {@code grad} (weights + 1 elements). The batch is the {@code batch}
   * samples from {@code step * batch}, round the shard.
   */
  public static void backward(
      FloatBuffer x, FloatBuffer y, FloatBuffer w, FloatBuffer grad, int step, int batch) {
    int samples = y.limit();
    int features = w.limit() - 1;
    float[] sum = new float[features + 1];
    float loss = 0f;
    for (int k = 0; k < batch; k++) {
      int i = (int) (((long) step * batch + k) % samples);
      float z = w.get(features);
      for (int j = 0; j < features; j++) {
        z += w.get(j) * x.get(i * features + j);
      }
      float label = y.get(i);
      float error = sigmoid(z) - label;
      for (int j = 0; j < features; j++) {
        sum[j] += error * x.get(i * features + j);
      }
      sum[features] += error;
      loss += softplus(z) - label * z; // -log p(label | x), without overflow
    }
    for (int j = 0; j <= features; j++) {
      grad.put(j, sum[j] / batch);
    }
    grad.put(features + 1, loss / batch);
  }

  /**
   * One SGD step: {@code w -= rate * grad} for the weights, and the loss at the end of {@code grad}
   * into {@code losses[step]}.
   */
  public static void update(
      FloatBuffer w, FloatBuffer grad, FloatBuffer losses, int step, float rate) {
    int weights = w.limit();
    for (int j = 0; j < weights; j++) {
      w.put(j, w.get(j) - rate * grad.get(j));
    }
    losses.put(step, grad.get(weights));
  }

  private static float sigmoid(float z) {
    return (float) (1.0 / (1.0 + StrictMath.exp(-z)));
  }

  private static float softplus(float z) {
    return (float) (Math.max(z, 0.0) + StrictMath.log1p(StrictMath.exp(-Math.abs((double) z))));
  }
}
