package dev.openaccel.cluster;

/**
 * How {@link ProcessGroup#allReduce}, {@link ProcessGroup#reduce} and {@link
 * ProcessGroup#reduceScatter} combine the members' elements. Integer arithmetic wraps around;
 * floating-point arithmetic is Java's ({@link Math#min}/{@link Math#max} for min and max, so a NaN
 * wins and -0.0 is below 0.0).
 */
public enum ReduceOp {
  /** The sum. */
  SUM,
  /** The product. */
  PRODUCT,
  /** The smallest. */
  MIN,
  /** The largest. */
  MAX,
  /**
   * The sum divided by the number of members, once, by the member that completes the sum; integer
   * types divide as Java does (truncating toward zero).
   */
  AVERAGE;

  /** The name as descriptors and error messages write it ({@code sum}). */
  @Override
  public String toString() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
