package dev.openaccel.benchmarks.launch;

import dev.openaccel.benchmarks.support.CountingActor;
import dev.openaccel.benchmarks.support.OpenReg;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Stream;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.Props;
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
 * Empty kernels through one stream, in batches: enqueue {@value #BATCH}, then wait until all ran.
 * The baselines do the same with the same batching: {@code tell} to one Pekko actor that counts (on
 * Pekko's default dispatcher) then a flush message it answers, and {@code execute} on a
 * single-thread executor then a marker task.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class EmptyKernels {
  static final int BATCH = 1_000;

  private Accelerator accelerator;
  private Stream stream;
  private ActorRef<CountingActor.Command> counter;
  private ActorRef<CountingActor.Command> batchedCounter;
  private ExecutorService executor;

  @Setup
  public void setUp() {
    accelerator = OpenReg.start();
    stream = accelerator.newStream(OpenReg.device(0));
    counter = accelerator.system().systemActorOf(CountingActor.create(), "counter", Props.empty());
    batchedCounter =
        accelerator
            .system()
            .systemActorOf(
                CountingActor.create(),
                "batched-counter",
                DispatcherSelector.fromConfig("bench.batched-dispatcher"));
    executor = Executors.newSingleThreadExecutor();
  }

  @TearDown
  public void tearDown() {
    executor.shutdownNow();
    accelerator.close();
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public void streamLaunch() {
    for (int i = 0; i < BATCH; i++) {
      stream.launch("empty", OpenReg.EMPTY);
    }
    stream.synchronize();
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public long pekkoTell() {
    return tellAndFlush(counter);
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public long pekkoTellThroughput64() {
    return tellAndFlush(batchedCounter);
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public Object singleThreadExecutor() throws InterruptedException, ExecutionException {
    for (int i = 0; i < BATCH; i++) {
      executor.execute(OpenReg.EMPTY);
    }
    return executor.submit(() -> null).get();
  }

  private static long tellAndFlush(ActorRef<CountingActor.Command> actor) {
    for (int i = 0; i < BATCH; i++) {
      actor.tell(CountingActor.Increment.INSTANCE);
    }
    CompletableFuture<Long> count = new CompletableFuture<>();
    actor.tell(new CountingActor.Flush(count));
    return count.join();
  }
}
