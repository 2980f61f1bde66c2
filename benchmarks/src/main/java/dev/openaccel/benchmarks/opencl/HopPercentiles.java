package dev.openaccel.benchmarks.opencl;

import dev.openaccel.runtime.Accelerator;
import java.util.Arrays;
import java.util.function.DoubleSupplier;

/**
 * The {@link EventHop} loop outside JMH, printing the distribution of the device-clock hop (p50,
 * p90, p99, mean) for ours and for raw marker/barrier/marker, which the benchmark's mean alone
 * hides: {@code POCL_SIGFPE_HANDLER=0 java -cp benchmarks/target/benchmarks.jar
 * dev.openaccel.benchmarks.opencl.HopPercentiles [hops]} (default 4000; the first fifth is
 * warm-up).
 */
public final class HopPercentiles {
  private HopPercentiles() {}

  public static void main(String[] args) {
    int hops = args.length > 0 ? Integer.parseInt(args[0]) : 4000;
    try (Accelerator accelerator = OpenClBench.start();
        Hops.Ours ours = new Hops.Ours(accelerator)) {
      System.out.println("ours: " + summary(hops, ours::hopNanos));
    }
    try (Hops.Raw raw = new Hops.Raw()) {
      System.out.println("raw:  " + summary(hops, () -> raw.hopNanos(false)));
    }
  }

  private static String summary(int hops, DoubleSupplier hop) {
    double[] nanos = new double[hops];
    for (int i = 0; i < hops; i++) {
      nanos[i] = hop.getAsDouble();
    }
    double[] kept = Arrays.copyOfRange(nanos, hops / 5, hops);
    Arrays.sort(kept);
    return String.format(
        "device-clock hop over %d hops: p50 %.2f us, p90 %.2f us, p99 %.2f us, mean %.2f us",
        kept.length,
        kept[kept.length / 2] / 1e3,
        kept[kept.length * 9 / 10] / 1e3,
        kept[kept.length * 99 / 100] / 1e3,
        Arrays.stream(kept).average().orElse(0) / 1e3);
  }
}
