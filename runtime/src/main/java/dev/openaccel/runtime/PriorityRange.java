package dev.openaccel.runtime;

/**
 * The stream priorities a backend supports. As in PyTorch, {@code least} is the lowest priority and
 * {@code greatest} the highest; which of the two is numerically larger is the backend's choice.
 *
 * @param least the lowest priority value
 * @param greatest the highest priority value
 */
public record PriorityRange(int least, int greatest) {

  /** Clamps a requested priority into this range. */
  public int clamp(int priority) {
    int low = Math.min(least, greatest);
    int high = Math.max(least, greatest);
    return Math.max(low, Math.min(high, priority));
  }

  /** Whether {@code priority} lies inside this range. */
  public boolean contains(int priority) {
    return clamp(priority) == priority;
  }
}
