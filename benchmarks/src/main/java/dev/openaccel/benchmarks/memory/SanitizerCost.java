package dev.openaccel.benchmarks.memory;

import com.typesafe.config.ConfigFactory;
import dev.openaccel.benchmarks.support.OpenReg;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.KernelContext;
import dev.openaccel.runtime.Stream;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What the stream sanitizer ({@code openaccel.sanitizer}) costs, on and off, each in its own JVM
 * (JMH forks each parameter): {@code handOff} is a producer-consumer step over one buffer, the
 * checked path: a kernel writes it on stream A, A records an event, B waits for it and a kernel
 * reads it on B; {@code emptyKernels} launches plain kernels, which no rule looks at. Both in
 * batches of {@value #BATCH}, then both streams synchronized.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class SanitizerCost {
  static final int BATCH = 1_000;
  private static final dev.openaccel.runtime.Kernel NOTHING = (KernelContext context) -> {};

  @Param({"off", "throw"})
  public String sanitizer;

  private Accelerator accelerator;
  private Stream a;
  private Stream b;
  private DeviceBuffer buffer;
  private Event event;

  @Setup
  public void setUp() {
    accelerator =
        Accelerator.start(
            ConfigFactory.parseString(
                    "openaccel.system-name = sanitizer-"
                        + sanitizer
                        + "\nopenaccel.sanitizer = "
                        + sanitizer)
                .withFallback(ConfigFactory.load()));
    a = accelerator.newStream(OpenReg.device(0));
    b = accelerator.newStream(OpenReg.device(0));
    accelerator.setStream(a);
    buffer = accelerator.allocate(OpenReg.device(0), 4096);
    event = accelerator.newEvent();
  }

  @TearDown
  public void tearDown() {
    event.close();
    buffer.close();
    accelerator.close();
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public void handOff() {
    for (int i = 0; i < BATCH; i++) {
      a.waitEvent(event); // the next write waits for the previous read (recorded on b below)
      a.launch("write", NOTHING, buffer);
      event.record(a);
      b.waitEvent(event);
      b.launch("read", NOTHING, buffer);
      event.record(b);
    }
    a.synchronize();
    b.synchronize();
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public void emptyKernels() {
    for (int i = 0; i < BATCH; i++) {
      a.launch("empty", OpenReg.EMPTY);
    }
    a.synchronize();
  }
}
