package dev.openaccel.benchmarks.scale;

import dev.openaccel.benchmarks.support.Heap;
import dev.openaccel.benchmarks.support.OpenReg;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Stream;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Props;
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
 * Creates {@code items} fresh streams ({@code newStream}) on one device and keeps them alive. The
 * timed part ends when the last stream has run a kernel (its actor exists, so the device has
 * spawned all of them); before the heap is read, every stream runs a kernel, so every stream's
 * actor has started. Streams cannot be released (the API has no {@code Stream.close()}), so every
 * iteration gets a fresh accelerator. {@link #callNanosPerItem} reports the caller's loop alone.
 * The baseline spawns as many idle Pekko actors under one parent and waits until all have started.
 * Runs in a 1 GiB heap: 100 k streams must fit. The heap is read before an iteration only once the
 * last iteration's actor system has been collected (its threads may still be ending after its close
 * returned; a first reading that still held it came out negative).
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx1g")
public class StreamScale {
  @Param({"10000", "100000"})
  int items;

  /** Heap kept alive per item, in bytes; JMH reads it after each iteration. */
  public double retainedBytesPerItem;

  /**
   * Time per item of the caller's loop alone ({@code newStream} calls, or {@code tell}s), in
   * nanoseconds: the actors are spawned asynchronously, after it.
   */
  public double callNanosPerItem;

  private Accelerator accelerator;
  private ActorRef<Spawner.Command> spawner;
  private Stream[] streams;
  private long heapBefore;
  private WeakReference<Object> closed; // the last iteration's actor system

  @Setup(Level.Iteration)
  public void prepare() throws InterruptedException {
    if (closed != null && !Heap.collected(closed, Duration.ofSeconds(30))) {
      throw new IllegalStateException(
          "the last iteration's actor system is still reachable 30 s after its close: the heap"
              + " reading would count it");
    }
    accelerator = OpenReg.start();
    spawner = accelerator.system().systemActorOf(Spawner.create(), "spawner", Props.empty());
    Stream warm = accelerator.newStream(OpenReg.device(0));
    warm.launch("warm-up", OpenReg.EMPTY);
    warm.synchronize();
    streams = new Stream[items];
    heapBefore = Heap.usedAfterGc();
  }

  @Benchmark
  public void newStreams() {
    long begin = System.nanoTime();
    for (int i = 0; i < items; i++) {
      streams[i] = accelerator.newStream(OpenReg.device(0));
    }
    callNanosPerItem = (System.nanoTime() - begin) / (double) items;
    Stream last = streams[items - 1];
    last.launch("first", OpenReg.EMPTY);
    last.synchronize();
  }

  @Benchmark
  public void actorSpawns() throws InterruptedException {
    CountDownLatch started = new CountDownLatch(items);
    long begin = System.nanoTime();
    for (int i = 0; i < items; i++) {
      spawner.tell(new Spawner.Spawn(started));
    }
    callNanosPerItem = (System.nanoTime() - begin) / (double) items;
    if (!started.await(60, TimeUnit.SECONDS)) {
      throw new IllegalStateException(started.getCount() + " actors did not start in 60 s");
    }
  }

  @TearDown(Level.Iteration)
  public void measure() {
    if (streams[0] != null) {
      for (Stream stream : streams) {
        stream.launch("first", OpenReg.EMPTY);
      }
      for (Stream stream : streams) {
        stream.synchronize();
      }
    }
    retainedBytesPerItem = (Heap.usedAfterGc() - heapBefore) / (double) items;
    streams = null;
    closed = new WeakReference<>(accelerator.system());
    accelerator.close();
    accelerator = null;
    spawner = null;
  }
}
