package dev.openaccel.benchmarks.opencl;

import dev.openaccel.opencl.DeviceKernel;
import dev.openaccel.opencl.LaunchShape;
import dev.openaccel.opencl.OpenCl;
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
 * Graphs on OpenCL against the same device work launched one by one, in the same run: a chain of
 * {@value #CHAIN} empty device kernels replayed {@value #REPLAYS} times per invocation versus as
 * many launches (kernels per second), and a one-kernel graph from {@code launch} to its end versus
 * one launch and a synchronize (microseconds). How a replay runs (a command buffer, or one enqueue
 * per kernel) is in the graph's description, which the setup prints.
 */
@State(Scope.Benchmark)
public class GraphReplayCl {
  static final int CHAIN = 100;
  static final int REPLAYS = 10;
  private static final LaunchShape ONE = LaunchShape.of(1);

  private Accelerator accelerator;
  private Stream stream;
  private DeviceKernel empty;
  private Graph chain;
  private Graph single;

  @Setup
  public void setUp() {
    accelerator = OpenClBench.start();
    stream = accelerator.newStream(OpenClBench.device(0));
    empty = OpenCl.get(accelerator).compile(OpenClBench.EMPTY).kernel("empty");
    try (GraphCapture capture = stream.beginCapture()) {
      for (int i = 0; i < CHAIN; i++) {
        empty.launch(stream, ONE, 0);
      }
      chain = capture.end();
    }
    try (GraphCapture capture = stream.beginCapture()) {
      empty.launch(stream, ONE, 0);
      single = capture.end();
    }
    System.out.println(chain.description());
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
      empty.launch(stream, ONE, 0);
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
    empty.launch(stream, ONE, 0);
    stream.synchronize();
  }
}
