package dev.openaccel.benchmarks.fanout;

import dev.openaccel.benchmarks.support.OpenReg;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.Stream;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
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
 * Fan-out/fan-in per iteration: a producer kernel, {@value #CONSUMERS} consumer kernels on their
 * own streams that wait for it, and an aggregator kernel that waits for all consumers; the caller
 * waits for the aggregator. Events are reused across iterations (re-recorded), as a training loop
 * would. The baseline chains the same graph of {@code CompletableFuture} stages over one
 * single-thread executor per stream.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class FanOutFanIn {
  static final int CONSUMERS = 8;

  private Accelerator accelerator;
  private Stream producer;
  private final Stream[] consumers = new Stream[CONSUMERS];
  private Stream aggregator;
  private Event produced;
  private final Event[] consumed = new Event[CONSUMERS];
  private Event aggregated;

  private ExecutorService producerThread;
  private final ExecutorService[] consumerThreads = new ExecutorService[CONSUMERS];
  private ExecutorService aggregatorThread;

  @Setup
  public void setUp() {
    accelerator = OpenReg.start();
    producer = accelerator.newStream(OpenReg.device(0));
    aggregator = accelerator.newStream(OpenReg.device(0));
    produced = accelerator.newEvent();
    aggregated = accelerator.newEvent();
    producerThread = Executors.newSingleThreadExecutor();
    aggregatorThread = Executors.newSingleThreadExecutor();
    for (int i = 0; i < CONSUMERS; i++) {
      consumers[i] = accelerator.newStream(OpenReg.device(0));
      consumed[i] = accelerator.newEvent();
      consumerThreads[i] = Executors.newSingleThreadExecutor();
    }
  }

  @TearDown
  public void tearDown() {
    producerThread.shutdownNow();
    aggregatorThread.shutdownNow();
    for (ExecutorService thread : consumerThreads) {
      thread.shutdownNow();
    }
    accelerator.close();
  }

  @Benchmark
  public void streams() {
    producer.launch("produce", OpenReg.EMPTY);
    produced.record(producer);
    for (int i = 0; i < CONSUMERS; i++) {
      consumers[i].waitEvent(produced);
      consumers[i].launch("consume", OpenReg.EMPTY);
      consumed[i].record(consumers[i]);
      aggregator.waitEvent(consumed[i]);
    }
    aggregator.launch("aggregate", OpenReg.EMPTY);
    aggregated.record(aggregator);
    aggregated.synchronize();
  }

  @Benchmark
  public void futures() {
    CompletableFuture<Void> source = CompletableFuture.runAsync(OpenReg.EMPTY, producerThread);
    CompletableFuture<?>[] parts = new CompletableFuture<?>[CONSUMERS];
    for (int i = 0; i < CONSUMERS; i++) {
      parts[i] = source.thenRunAsync(OpenReg.EMPTY, consumerThreads[i]);
    }
    CompletableFuture.allOf(parts).thenRunAsync(OpenReg.EMPTY, aggregatorThread).join();
  }
}
