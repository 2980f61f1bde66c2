package dev.openaccel.benchmarks.memory;

import dev.openaccel.benchmarks.support.OpenReg;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.DeviceBuffer;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
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
 * Allocation from the caching allocator: allocate and close a buffer of the same size on one stream
 * (the caller's current stream, device 0's default), so every allocation after the first is served
 * from the stream's cache. The baseline allocates a heap {@code ByteBuffer} of that size.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class CachedAllocation {
  @Param({"4096", "1048576"})
  int bytes;

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
  public DeviceBuffer allocateClose() {
    DeviceBuffer buffer = accelerator.allocate(OpenReg.device(0), bytes);
    buffer.close();
    return buffer;
  }

  @Benchmark
  public ByteBuffer byteBufferAllocate() {
    return ByteBuffer.allocate(bytes);
  }
}
