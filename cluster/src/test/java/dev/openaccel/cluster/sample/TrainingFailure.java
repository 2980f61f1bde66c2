package dev.openaccel.cluster.sample;

/**
 * The training stopped: the message says where ({@code "training failed at step 37 of 200: "})
 * followed by the cause's message, e.g. the failed all-reduce naming the node that left.
 */
public final class TrainingFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * @param where where the training was, e.g. {@code "at step 37 of 200"}
   * @param cause why it stopped
   */
  public TrainingFailure(String where, Throwable cause) {
    super("training failed " + where + ": " + cause.getMessage(), cause);
  }
}
