package dev.openaccel.benchmarks.memory;

import dev.openaccel.benchmarks.support.OpenReg;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Stream;
import java.nio.ByteBuffer;
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
 * A host to device to host round trip of {@value #BYTES} bytes (two copies, then a stream
 * synchronize), next to two {@code System.arraycopy} calls of the same size. Needs {@code
 * openaccel.openreg.memory-per-device} of at least that size (the default is 256 MiB).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class RoundTrip {
  /** Bytes per copy. */
  public static final int BYTES = 64 << 20;

  private Accelerator accelerator;
  private Stream stream;
  private DeviceBuffer device;
  private final byte[] source = new byte[BYTES];
  private final byte[] middle = new byte[BYTES];
  private final byte[] target = new byte[BYTES];
  private final ByteBuffer host = ByteBuffer.wrap(source);
  private final ByteBuffer back = ByteBuffer.wrap(target);

  @Setup
  public void setUp() {
    accelerator = OpenReg.start();
    stream = accelerator.newStream(OpenReg.device(0));
    device = accelerator.allocate(OpenReg.device(0), BYTES);
    device.recordStream(stream);
    for (int i = 0; i < BYTES; i += 4096) {
      source[i] = (byte) i;
    }
  }

  @TearDown
  public void tearDown() {
    device.close();
    accelerator.close();
  }

  @Benchmark
  public void hostDeviceHost() {
    stream.copyToDevice(host, device);
    stream.copyToHost(device, back);
    stream.synchronize();
  }

  @Benchmark
  public void arraycopy() {
    System.arraycopy(source, 0, middle, 0, BYTES);
    System.arraycopy(middle, 0, target, 0, BYTES);
  }
}
