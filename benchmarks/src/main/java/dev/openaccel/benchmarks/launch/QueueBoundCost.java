package dev.openaccel.benchmarks.launch;

import com.typesafe.config.ConfigFactory;
import dev.openaccel.benchmarks.support.OpenReg;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Stream;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What the bound on a stream's queue ({@code openaccel.stream-queue-limit}) costs while it is not
 * reached: empty kernels through one stream in batches of {@value #BATCH}, as {@link EmptyKernels}
 * measures them, on an accelerator with the default bound and, as the baseline, on one without a
 * bound (0), both in the same run.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class QueueBoundCost {
  static final int BATCH = 1_000;

  private Accelerator bounded;
  private Accelerator unbounded;
  private Stream boundedStream;
  private Stream unboundedStream;

  @Setup
  public void setUp() {
    bounded = start("bound-default", null);
    unbounded = start("bound-none", "0");
    boundedStream = bounded.newStream(OpenReg.device(0));
    unboundedStream = unbounded.newStream(OpenReg.device(0));
  }

  @TearDown
  public void tearDown() {
    bounded.close();
    unbounded.close();
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public void boundNotReached() {
    run(boundedStream);
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public void noBound() {
    run(unboundedStream);
  }

  private static void run(Stream stream) {
    for (int i = 0; i < BATCH; i++) {
      stream.launch("empty", OpenReg.EMPTY);
    }
    stream.synchronize();
  }

  private static Accelerator start(String name, String limit) {
    String config = "openaccel.system-name = " + name;
    if (limit != null) {
      config += "\nopenaccel.stream-queue-limit = " + limit;
    }
    return Accelerator.start(ConfigFactory.parseString(config).withFallback(ConfigFactory.load()));
  }
}
