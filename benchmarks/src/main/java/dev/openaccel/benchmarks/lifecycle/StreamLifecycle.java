package dev.openaccel.benchmarks.lifecycle;

import dev.openaccel.benchmarks.support.OpenReg;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Stream;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Taking a stream from the pool ({@code streamFromPool}, round-robin over streams created once).
 * Fresh streams ({@code newStream}) live forever, so their cost is measured in bounded batches by
 * {@link dev.openaccel.benchmarks.scale.StreamScale}; the report puts the two side by side.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class StreamLifecycle {
  private Accelerator accelerator;

  @Setup
  public void setUp() {
    accelerator = OpenReg.start();
  }

  @TearDown
  public void tearDown() {
    accelerator.close();
  }

  @Benchmark
  public Stream streamFromPool() {
    return accelerator.streamFromPool(OpenReg.device(0), false);
  }
}
