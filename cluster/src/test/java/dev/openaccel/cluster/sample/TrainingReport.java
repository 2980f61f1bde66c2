package dev.openaccel.cluster.sample;

import java.io.PrintStream;
import java.nio.ByteBuffer;

/**
 * The driver's report of a training run: the settings, the loss curve (a few steps), the steps per
 * second, the final weights' checksum and whether every member holds the same bits, and the verdict
 * against the single-process run: {@value #IDENTICAL}, or a line starting with {@code "weights:
 * FAIL"}.
 */
public final class TrainingReport {
  /** The verdict when the weights and the losses match the single-process run bit for bit. */
  public static final String IDENTICAL = "weights: bit-identical to the single-process run";

  /** The loss curve shows about this many steps, and the last one. */
  private static final int CURVE_LINES = 8;

  private TrainingReport() {}

  /**
   * Prints the report of {@code result} (the driver's) against {@code reference}.
   *
   * @return true if every member's weights, and the losses, equal the reference's bit for bit
   */
  public static boolean print(
      TrainingResult result, TrainingReference.Run reference, PrintStream out) {
    TrainingSettings s = result.settings();
    int steps = s.steps();
    out.printf(
        "OpenAccel data-parallel training: logistic regression, %d features + bias, %d members"
            + " (the driver and %d workers), one OpenReg device each%n",
        s.features(), result.members(), result.members() - 1);
    out.printf(
        "shards of %d samples, batch %d per member, %d SGD steps, learning rate %s, seed %d%n",
        s.samples(), s.batch(), steps, s.learningRate(), s.seed());
    out.println("step   loss (mean over the members' batches)");
    int every = Math.max(1, steps / CURVE_LINES);
    for (int step = 0; step < steps; step++) {
      if (step % every == 0 || step == steps - 1) {
        out.printf("%4d   %.6f%n", step, result.loss(step));
      }
    }
    double ms = result.nanos() / 1e6;
    out.printf(
        "%d steps in %.1f ms: %.1f steps/s (first step enqueued to last update done, on the driver)%n",
        steps, ms, steps / (ms / 1000));
    int other = result.firstDisagreeing();
    out.printf(
        "final weights: %d float32, CRC32 %s, %s%n",
        s.weights(),
        result.checksum(),
        other < 0
            ? "the same bits on all " + result.members() + " members"
            : "FAIL: rank "
                + other
                + " holds other bits (CRC32 "
                + TrainingResult.checksum(result.weightsOf(other))
                + ")");
    int weightsOff = differences(result.weights(), reference.weights());
    int lossesOff = differences(result.losses(), reference.losses());
    boolean identical = other < 0 && weightsOff == 0 && lossesOff == 0;
    if (identical) {
      out.println(IDENTICAL);
    } else {
      out.printf(
          "weights: FAIL: %d of %d weights and %d of %d losses differ from the single-process run"
              + " (CRC32 %s there)%n",
          weightsOff, s.weights(), lossesOff, steps, TrainingResult.checksum(reference.weights()));
    }
    return identical;
  }

  /** How many float32 elements of {@code a} and {@code b} differ in any bit. */
  private static int differences(byte[] a, byte[] b) {
    if (a.length != b.length) {
      return Math.max(a.length, b.length) / 4;
    }
    int off = 0;
    ByteBuffer x = ByteBuffer.wrap(a);
    ByteBuffer y = ByteBuffer.wrap(b);
    for (int i = 0; i < a.length; i += 4) {
      if (x.getInt(i) != y.getInt(i)) {
        off++;
      }
    }
    return off;
  }
}
