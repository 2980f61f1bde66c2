package dev.openaccel.benchmarks.event;

import dev.openaccel.benchmarks.support.OpenReg;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.Stream;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * {@code Event.query()} and {@code Event.synchronize()} on an event whose work has completed: both
 * should be reads of published state. Baselines: an {@code AtomicLong} read and {@code join()} on a
 * completed {@code CompletableFuture}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class CompletedEvent {
  private Accelerator accelerator;
  private Event event;
  private final AtomicLong published = new AtomicLong(1);
  private final CompletableFuture<Long> completed = CompletableFuture.completedFuture(1L);

  @Setup
  public void setUp() {
    accelerator = OpenReg.start();
    Stream stream = accelerator.newStream(OpenReg.device(0));
    stream.launch("work", OpenReg.EMPTY);
    event = stream.recordEvent();
    event.synchronize();
    if (!event.query()) {
      throw new IllegalStateException("the event should be complete after synchronize()");
    }
  }

  @TearDown
  public void tearDown() {
    event.close();
    accelerator.close();
  }

  @Benchmark
  public boolean eventQuery() {
    return event.query();
  }

  @Benchmark
  public void eventSynchronize() {
    event.synchronize();
  }

  @Benchmark
  public long atomicLongRead() {
    return published.get();
  }

  @Benchmark
  public Long completedFutureJoin() {
    return completed.join();
  }
}
