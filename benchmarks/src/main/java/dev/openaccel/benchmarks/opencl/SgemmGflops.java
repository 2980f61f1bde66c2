package dev.openaccel.benchmarks.opencl;

import static org.lwjgl.opencl.CL10.CL_MEM_READ_WRITE;
import static org.lwjgl.opencl.CL10.clCreateBuffer;
import static org.lwjgl.opencl.CL10.clEnqueueNDRangeKernel;
import static org.lwjgl.opencl.CL10.clFinish;
import static org.lwjgl.opencl.CL10.clReleaseMemObject;
import static org.lwjgl.opencl.CL10.clSetKernelArg1f;
import static org.lwjgl.opencl.CL10.clSetKernelArg1i;
import static org.lwjgl.opencl.CL10.clSetKernelArg1p;

import dev.openaccel.opencl.OpenCl;
import dev.openaccel.opencl.Sgemm;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Stream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.IntBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.lwjgl.PointerBuffer;
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
 * An {@code n x n} single-precision matrix multiply: OpenAccel's {@link Sgemm} on an opencl stream
 * (multiply, then synchronize), the same kernel and launch on a raw queue ({@code clFinish}), and a
 * blocked single-thread Java multiply. GFLOP/s = 2 n³ x the rate.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class SgemmGflops {
  @Param({"1024"})
  public int n;

  private Accelerator accelerator;
  private Stream stream;
  private Sgemm sgemm;
  private DeviceBuffer a;
  private DeviceBuffer b;
  private DeviceBuffer c;
  private RawOpenCl raw;
  private long queue;
  private long kernel;
  private final long[] mems = new long[3];
  private PointerBuffer global;
  private PointerBuffer local;
  private float[] x;
  private float[] y;
  private float[] z;

  @Setup
  public void setUp() throws IOException {
    accelerator = OpenClBench.start();
    Device device = OpenClBench.device(0);
    stream = accelerator.newStream(device);
    sgemm = Sgemm.of(OpenCl.get(accelerator));
    long bytes = 4L * n * n;
    a = accelerator.allocate(device, bytes);
    b = accelerator.allocate(device, bytes);
    c = accelerator.allocate(device, bytes);
    raw = new RawOpenCl();
    queue = raw.newQueue();
    Sgemm.Plan plan = sgemm.plan(0, n, n, n); // the raw queue makes the same launch
    kernel = raw.kernel(source(), plan.buildOptions(), plan.kernel());
    IntBuffer rc = org.lwjgl.BufferUtils.createIntBuffer(1);
    for (int i = 0; i < 3; i++) {
      mems[i] = clCreateBuffer(raw.context, CL_MEM_READ_WRITE, bytes, rc);
      RawOpenCl.check(rc.get(0), "clCreateBuffer");
    }
    long[] g = plan.shape().global();
    long[] l = plan.shape().local();
    global = PointerBuffer.allocateDirect(g.length).put(g).flip();
    local = l.length == 0 ? null : PointerBuffer.allocateDirect(l.length).put(l).flip();
    clSetKernelArg1i(kernel, 0, n);
    clSetKernelArg1i(kernel, 1, n);
    clSetKernelArg1i(kernel, 2, n);
    clSetKernelArg1f(kernel, 3, 1f);
    clSetKernelArg1p(kernel, 4, mems[0]);
    clSetKernelArg1p(kernel, 5, mems[1]);
    clSetKernelArg1f(kernel, 6, 0f);
    clSetKernelArg1p(kernel, 7, mems[2]);
    x = new float[n * n];
    y = new float[n * n];
    z = new float[n * n];
    for (int i = 0; i < n * n; i++) {
      x[i] = (i % 7) * 0.25f;
      y[i] = (i % 5) * 0.5f;
    }
  }

  private static String source() throws IOException {
    try (InputStream in = Sgemm.class.getResourceAsStream("sgemm.cl")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @TearDown
  public void tearDown() {
    for (long mem : mems) {
      clReleaseMemObject(mem);
    }
    RawOpenCl.releaseQueue(queue);
    raw.close();
    a.close();
    b.close();
    c.close();
    accelerator.close();
  }

  @Benchmark
  public void openAccelSgemm() {
    sgemm.multiply(stream, n, n, n, a, b, c);
    stream.synchronize();
  }

  @Benchmark
  public void rawSgemm() {
    RawOpenCl.check(
        clEnqueueNDRangeKernel(queue, kernel, global.remaining(), null, global, local, null, null),
        "clEnqueueNDRangeKernel");
    RawOpenCl.check(clFinish(queue), "clFinish");
  }

  @Benchmark
  public float[] javaBlocked() {
    JavaGemm.multiply(n, x, y, z);
    return z;
  }
}
