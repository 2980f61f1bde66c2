package dev.openaccel.benchmarks.hop;

import dev.openaccel.benchmarks.support.HopClock;
import dev.openaccel.benchmarks.support.OpenReg;
import dev.openaccel.benchmarks.support.Spin;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.Stream;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Cross-stream dependency latency: stream A's kernel ends, the event recorded after it completes,
 * and stream B, blocked on that event, starts its next kernel.
 *
 * <p>Each invocation is armed beforehand, outside the timing: A runs a gate kernel that spins until
 * released, the event is recorded behind it, and B has run a kernel and parked on the event. The
 * timed part releases the gate and spins until B's kernel has started, so it measures the hop plus
 * two cache-line hand-offs (release to A, B's start to the caller). The hop alone, from the end of
 * A's kernel to the start of B's, each read with {@code System.nanoTime()} by the kernel itself,
 * goes to {@link HopClock}: with {@code -prof dev.openaccel.benchmarks.support.HopClockProfiler}
 * its percentiles are secondary metrics. The baseline builds the same dependency from {@code
 * CompletableFuture} stages on two single-thread executors. Run per wait strategy of the device
 * threads; with {@code -prof dev.openaccel.benchmarks.support.DeviceCpuProfiler} each hop also
 * reports the device threads' CPU time, the idle polling of the at least {@value
 * #PARK_MARGIN_NANOS} ns between hops included.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class CrossStreamHop {
  /**
   * How long armed invocations give way, yielding the core, so that B has surely parked on its
   * wait. A margin spent spinning left B's thread no core to finish its turn on while A's gate
   * kernel spun on the other one, and B's leftover turn ran during the hop: in the same loop
   * outside JMH, release to the end of A's gate kernel had a p90 of 15 µs (the stages: 0.4 µs);
   * with the yielding margin 2-3 µs.
   */
  static final long PARK_MARGIN_NANOS = 20_000;

  /**
   * What A and B share: a gate A's kernel holds until released, B's start flag, and when A's kernel
   * ended and B's started (each written before a volatile write the benchmark thread reads after).
   */
  abstract static class Gate {
    volatile boolean armed;
    volatile boolean released;
    volatile boolean started;
    private long endedNanos;
    private long startedNanos;
    private boolean added;

    void reset() {
      addHop();
      armed = false;
      released = false;
      started = false;
      added = false;
    }

    /** Adds an iteration's last hop before the profiler reads its hops. */
    @TearDown(Level.Iteration)
    public void lastHop() {
      addHop();
    }

    /** Adds the last hop to {@link HopClock}, once, if it happened. */
    void addHop() {
      if (started && !added) {
        HopClock.add(startedNanos - endedNanos);
        added = true;
      }
    }

    /** A's kernel: holds until released. */
    void hold() {
      armed = true;
      while (!released) {
        Thread.onSpinWait();
      }
      endedNanos = System.nanoTime();
    }

    /** B's kernel after the hop. */
    void begin() {
      startedNanos = System.nanoTime();
      started = true;
    }

    void hop() {
      released = true;
      Spin.until(() -> started, "B's kernel to start");
    }
  }

  /** Two OpenReg streams of one device and an event between them. */
  @State(Scope.Benchmark)
  public static class Streams extends Gate {
    /** How the device threads wait for work; see {@link OpenReg#start(String)}. */
    @Param({"blocking", "yielding", "busy-spin"})
    public String waitStrategy;

    private volatile boolean ready;
    private Accelerator accelerator;
    private Stream a;
    private Stream b;
    private Event event;

    @Setup
    public void setUp() {
      accelerator = OpenReg.start(waitStrategy);
      a = accelerator.newStream(OpenReg.device(0));
      b = accelerator.newStream(OpenReg.device(0));
      event = accelerator.newEvent();
    }

    @Setup(Level.Invocation)
    public void arm() {
      reset();
      ready = false;
      a.launch("gate", this::hold);
      event.record(a);
      b.launch("ready", () -> ready = true);
      b.waitEvent(event);
      b.launch("next", this::begin);
      Spin.until(() -> armed && ready, "A's gate and B's first kernel");
      Spin.yieldFor(PARK_MARGIN_NANOS);
    }

    @TearDown
    public void tearDown() {
      event.close();
      accelerator.close();
    }
  }

  /** Two single-thread executors and a stage between them. */
  @State(Scope.Benchmark)
  public static class Futures extends Gate {
    private ExecutorService a;
    private ExecutorService b;

    @Setup
    public void setUp() {
      a = Executors.newSingleThreadExecutor();
      b = Executors.newSingleThreadExecutor();
    }

    @Setup(Level.Invocation)
    public void arm() {
      reset();
      CompletableFuture.runAsync(this::hold, a).thenRunAsync(this::begin, b);
      Spin.until(() -> armed, "A's gate");
      Spin.yieldFor(PARK_MARGIN_NANOS);
    }

    @TearDown
    public void tearDown() {
      a.shutdownNow();
      b.shutdownNow();
    }
  }

  @Benchmark
  public void eventHop(Streams streams) {
    streams.hop();
  }

  @Benchmark
  public void futureHop(Futures futures) {
    futures.hop();
  }
}
