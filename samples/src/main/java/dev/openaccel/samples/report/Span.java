package dev.openaccel.samples.report;

import java.util.Objects;

/**
 * One kernel as the trace bus saw it: from its {@code KernelStarted} to its {@code KernelFinished},
 * on the device clock ({@link System#nanoTime()}).
 *
 * @param device the device index
 * @param streamId the stream's id on that device
 * @param name the kernel's name as launched (copies are named by the runtime, e.g. {@code
 *     copyToDevice})
 * @param startNanos when it started
 * @param endNanos when it finished, {@code >= startNanos}
 * @param failed whether it threw
 */
public record Span(
    int device, long streamId, String name, long startNanos, long endNanos, boolean failed) {
  public Span {
    Objects.requireNonNull(name, "name");
    if (endNanos < startNanos) {
      throw new IllegalArgumentException(
          "span '" + name + "' ends at " + endNanos + " before it starts at " + startNanos);
    }
  }

  public long durationNanos() {
    return endNanos - startNanos;
  }

  /**
   * The kind of kernel: its name up to the first space or bracket ({@code "gemm C[0,1] k=2"} is a
   * {@code "gemm"}); pictures colour spans by kind.
   */
  public String kind() {
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c == ' ' || c == '[' || c == '(') {
        return i == 0 ? name : name.substring(0, i);
      }
    }
    return name;
  }
}
