package dev.openaccel.benchmarks.launch;

import dev.openaccel.benchmarks.support.OpenReg;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Graph;
import dev.openaccel.runtime.GraphCapture;
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
 * Graphs on OpenReg against the same work launched one by one, in the same run: a chain of {@value
 * #CHAIN} empty Java kernels replayed {@value #REPLAYS} times per invocation versus {@value #CHAIN}
 * x {@value #REPLAYS} launches (kernels per second), and a one-kernel graph from {@code launch} to
 * its end versus one launch and a synchronize (microseconds).
 */
@State(Scope.Benchmark)
public class GraphReplay {
  static final int CHAIN = 100;
  static final int REPLAYS = 100;

  private Accelerator accelerator;
  private Stream stream;
  private Graph chain;
  private Graph single;

  @Setup
  public void setUp() {
    accelerator = OpenReg.start();
    stream = accelerator.newStream(OpenReg.device(0));
    try (GraphCapture capture = stream.beginCapture()) {
      for (int i = 0; i < CHAIN; i++) {
        stream.launch("empty", OpenReg.EMPTY);
      }
      chain = capture.end();
    }
    try (GraphCapture capture = stream.beginCapture()) {
      stream.launch("empty", OpenReg.EMPTY);
      single = capture.end();
    }
  }

  @TearDown
  public void tearDown() {
    accelerator.close();
  }

  /** The chain replayed: kernels per second. */
  @Benchmark
  @BenchmarkMode(Mode.Throughput)
  @OutputTimeUnit(TimeUnit.SECONDS)
  @OperationsPerInvocation(CHAIN * REPLAYS)
  public void chainReplayed() {
    for (int i = 0; i < REPLAYS; i++) {
      chain.launch(stream);
    }
    stream.synchronize();
  }

  /** The same kernels launched one by one: kernels per second. */
  @Benchmark
  @BenchmarkMode(Mode.Throughput)
  @OutputTimeUnit(TimeUnit.SECONDS)
  @OperationsPerInvocation(CHAIN * REPLAYS)
  public void chainLaunched() {
    for (int i = 0; i < CHAIN * REPLAYS; i++) {
      stream.launch("empty", OpenReg.EMPTY);
    }
    stream.synchronize();
  }

  /** A one-kernel graph, from its launch to its end. */
  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.MICROSECONDS)
  public void singleReplayed() {
    single.launch(stream).toCompletableFuture().join();
  }

  /** One launch and a synchronize of its stream. */
  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.MICROSECONDS)
  public void singleLaunched() {
    stream.launch("empty", OpenReg.EMPTY);
    stream.synchronize();
  }
}
