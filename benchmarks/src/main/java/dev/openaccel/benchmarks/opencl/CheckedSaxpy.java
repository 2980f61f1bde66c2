package dev.openaccel.benchmarks.opencl;

import dev.openaccel.opencl.DeviceKernel;
import dev.openaccel.opencl.LaunchShape;
import dev.openaccel.opencl.OpenCl;
import dev.openaccel.opencl.ProgramOptions;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Stream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
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
 * What checking a device kernel's accesses costs: SAXPY ({@code y[i] = a * x[i] + y[i]} over {@code
 * n} floats) launched and synchronized on one stream, from the same source built unchecked and
 * checked ({@code ProgramOptions.checked}), in the same run. At a small {@code n} the launch
 * dominates (a checked launch also makes an error buffer and reads it back); at a large one, the
 * guarded accesses.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class CheckedSaxpy {
  static final String SOURCE =
      """
      __kernel void saxpy(float a, __global const float* x, __global float* y, int n) {
        size_t i = get_global_id(0);
        if (i < n) y[i] = a * x[i] + y[i];
      }
      """;

  @Param({"4096", "1048576"})
  public int n;

  private Accelerator accelerator;
  private Stream stream;
  private DeviceKernel unchecked;
  private DeviceKernel checked;
  private DeviceBuffer x;
  private DeviceBuffer y;
  private LaunchShape shape;

  @Setup
  public void setUp() {
    accelerator = OpenClBench.start();
    Device device = OpenClBench.device(0);
    stream = accelerator.newStream(device);
    OpenCl opencl = OpenCl.get(accelerator);
    unchecked = opencl.compile(SOURCE, ProgramOptions.defaults().checked(false)).kernel("saxpy");
    checked = opencl.compile(SOURCE, ProgramOptions.defaults().checked(true)).kernel("saxpy");
    x = accelerator.allocate(device, 4L * n);
    y = accelerator.allocate(device, 4L * n);
    ByteBuffer ones = ByteBuffer.allocateDirect(4 * n).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < n; i++) {
      ones.putFloat(4 * i, 1.0f);
    }
    stream.copyToDevice(ones, x);
    stream.copyToDevice(ones.duplicate(), y);
    stream.synchronize();
    shape = LaunchShape.of(n);
  }

  @TearDown
  public void tearDown() {
    x.close();
    y.close();
    accelerator.close();
  }

  @Benchmark
  public void uncheckedSaxpy() {
    unchecked.launch(stream, shape, 1e-6f, x, y, n);
    stream.synchronize();
  }

  @Benchmark
  public void checkedSaxpy() {
    checked.launch(stream, shape, 1e-6f, x, y, n);
    stream.synchronize();
  }
}
