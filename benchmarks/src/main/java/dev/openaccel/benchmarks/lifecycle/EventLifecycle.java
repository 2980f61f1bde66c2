package dev.openaccel.benchmarks.lifecycle;

import dev.openaccel.benchmarks.support.OpenReg;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.Stream;
import java.util.concurrent.CompletableFuture;
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
 * What an event costs over its life. Creating and closing one that was never recorded (the backend
 * event is created lazily, at the first record) next to creating a {@code CompletableFuture}; and
 * create + record + close of a fresh event per record next to re-recording one event, in batches of
 * {@value #BATCH} records followed by a stream synchronize.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class EventLifecycle {
  static final int BATCH = 1_000;

  private Accelerator accelerator;
  private Stream stream;
  private Event reused;

  @Setup
  public void setUp() {
    accelerator = OpenReg.start();
    stream = accelerator.newStream(OpenReg.device(0));
    reused = accelerator.newEvent();
  }

  @TearDown
  public void tearDown() {
    reused.close();
    accelerator.close();
  }

  @Benchmark
  public Event createClose() {
    Event event = accelerator.newEvent();
    event.close();
    return event;
  }

  @Benchmark
  public CompletableFuture<Void> newFuture() {
    return new CompletableFuture<>();
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public void createRecordClose() {
    for (int i = 0; i < BATCH; i++) {
      Event event = accelerator.newEvent();
      event.record(stream);
      event.close();
    }
    stream.synchronize();
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public void reRecord() {
    for (int i = 0; i < BATCH; i++) {
      reused.record(stream);
    }
    stream.synchronize();
  }
}
