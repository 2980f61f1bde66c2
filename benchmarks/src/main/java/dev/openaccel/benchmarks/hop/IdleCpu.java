package dev.openaccel.benchmarks.hop;

import dev.openaccel.benchmarks.support.OpenReg;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Stream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What a wait strategy burns while the runtime is idle: each operation runs one empty kernel on a
 * stream of every device, waits for them, then leaves the devices idle for {@value #IDLE_MILLIS}
 * ms. The score itself is only that period; the number that matters is the device threads' CPU per
 * operation from {@code -prof dev.openaccel.benchmarks.support.DeviceCpuProfiler}, which the
 * results table turns into CPU per idle second.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class IdleCpu {
  /** How long the devices stay idle per operation. */
  public static final long IDLE_MILLIS = 10;

  @Param({"blocking", "yielding", "busy-spin"})
  public String waitStrategy;

  private Accelerator accelerator;
  private final List<Stream> streams = new ArrayList<>();

  @Setup
  public void setUp() {
    accelerator = OpenReg.start(waitStrategy);
    for (int i = 0; i < accelerator.deviceCount(OpenReg.device(0).type()); i++) {
      streams.add(accelerator.newStream(OpenReg.device(i)));
    }
  }

  @TearDown
  public void tearDown() {
    accelerator.close();
  }

  @Benchmark
  public void kernelThenIdle() {
    for (Stream stream : streams) {
      stream.launch("wake", OpenReg.EMPTY);
    }
    for (Stream stream : streams) {
      stream.synchronize();
    }
    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(IDLE_MILLIS));
  }
}
