package dev.openaccel.benchmarks.scale;

import dev.openaccel.benchmarks.support.Heap;
import dev.openaccel.benchmarks.support.OpenReg;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.Stream;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Creates {@code items} events, each recorded once on one stream, and keeps them all alive: the
 * time of one iteration over {@code items} is the cost per event, and {@link #retainedBytesPerItem}
 * the heap each live, completed event holds (the array that holds them was allocated before the
 * first heap reading, so it is not counted). The baseline does the same with completed {@code
 * CompletableFuture}s. Runs in a 1 GiB heap: a million events must fit.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx1g")
public class EventScale {
  @Param({"10000", "100000", "1000000"})
  int items;

  /** Heap kept alive per item, in bytes; JMH reads it after each iteration. */
  public double retainedBytesPerItem;

  private Accelerator accelerator;
  private Stream stream;
  private Event[] events;
  private CompletableFuture<?>[] futures;
  private long heapBefore;

  @Setup
  public void setUp() {
    accelerator = OpenReg.start();
    stream = accelerator.newStream(OpenReg.device(0));
  }

  @Setup(Level.Iteration)
  public void prepare() {
    events = new Event[items];
    futures = new CompletableFuture<?>[items];
    heapBefore = Heap.usedAfterGc();
  }

  @Benchmark
  public void recordedEvents() {
    for (int i = 0; i < items; i++) {
      Event event = accelerator.newEvent();
      event.record(stream);
      events[i] = event;
    }
    stream.synchronize();
  }

  @Benchmark
  public void completedFutures() {
    for (int i = 0; i < items; i++) {
      CompletableFuture<Void> future = new CompletableFuture<>();
      future.complete(null);
      futures[i] = future;
    }
  }

  @TearDown(Level.Iteration)
  public void measure() {
    retainedBytesPerItem = (Heap.usedAfterGc() - heapBefore) / (double) items;
    for (Event event : events) {
      if (event != null) {
        event.close();
      }
    }
    events = null;
    futures = null;
  }

  @TearDown
  public void tearDown() {
    accelerator.close();
  }
}
