package dev.openaccel.samples.report;

/**
 * One piece of data a member sent for a collective operation, as its {@code CollectiveStep} trace
 * event reported it, on the device clock ({@link System#nanoTime()}).
 *
 * @param step its step of the operation's algorithm
 * @param piece its index within that step
 * @param bytes its size
 * @param startNanos when it was ready (it arrived and was reduced, or it is the member's own)
 * @param endNanos when it was handed to the network, {@code >= startNanos}
 */
public record CollectivePiece(int step, int piece, long bytes, long startNanos, long endNanos) {
  public CollectivePiece {
    if (endNanos < startNanos) {
      throw new IllegalArgumentException(
          "piece "
              + piece
              + " of step "
              + step
              + " was sent at "
              + endNanos
              + " before it was ready at "
              + startNanos);
    }
  }

  /** What pictures call it: {@code step 2 piece 0}. */
  public String name() {
    return "step " + step + " piece " + piece;
  }

  public long durationNanos() {
    return endNanos - startNanos;
  }
}
