package dev.openaccel.conformance;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.Graph;
import dev.openaccel.runtime.GraphCapture;
import dev.openaccel.runtime.GraphNode;
import dev.openaccel.runtime.Kernel;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.Capability;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Conformance of {@link Capability#GRAPHS}, the replay's side: a captured fork/join pipeline
 * replays to the results of the same work run eagerly, many times and from many threads at once, in
 * the launching stream's order, and records the graph's events again at each replay ({@link
 * GraphCaptureTck} has the capture's side). Undeclared, a capture is reported as unsupported.
 */
public abstract class GraphTck extends BackendTck {
  private static final int N = 64; // ints per buffer

  @Test
  void captureIsUnsupportedWhenUndeclared() {
    assumeUndeclared(Capability.GRAPHS);
    assertThrows(UnsupportedOperationException.class, () -> newStream(0).beginCapture());
  }

  /** in -> a; main: b = 2a; side: c = a*a; main: out = b + c -> host. */
  private final class Pipeline implements AutoCloseable {
    final Stream main = newStream(0);
    final Stream side = newStream(0);
    final Event fork = newEvent();
    final Event join = newEvent();
    final DeviceBuffer a = accelerator().allocate(device(0), N * 4L);
    final DeviceBuffer b = accelerator().allocate(device(0), N * 4L);
    final DeviceBuffer c = accelerator().allocate(device(0), N * 4L);
    final DeviceBuffer out = accelerator().allocate(device(0), N * 4L);
    final ByteBuffer in = ByteBuffer.allocateDirect(N * 4);
    final ByteBuffer result = ByteBuffer.allocateDirect(N * 4);

    void enqueue() {
      main.copyToDevice(in.duplicate(), a);
      main.launch("double", map((x, y) -> 2 * x), a, b);
      fork.record(main);
      side.waitEvent(fork);
      side.launch("square", map((x, y) -> x * x), a, c);
      join.record(side);
      main.waitEvent(join);
      main.launch("sum", sum(), b, c, out);
      main.copyToHost(out, result.duplicate());
    }

    void input(int seed) {
      for (int i = 0; i < N; i++) {
        in.putInt(i * 4, seed + i);
      }
    }

    int[] output() {
      int[] values = new int[N];
      for (int i = 0; i < N; i++) {
        values[i] = result.getInt(i * 4);
      }
      return values;
    }

    int[] expected(int seed) {
      int[] values = new int[N];
      for (int i = 0; i < N; i++) {
        int x = seed + i;
        values[i] = 2 * x + x * x;
      }
      return values;
    }

    Graph capture() {
      try (GraphCapture capture = main.beginCapture()) {
        enqueue();
        return capture.end();
      }
    }

    @Override
    public void close() {
      for (DeviceBuffer buffer : List.of(a, b, c, out)) {
        buffer.close();
      }
      fork.close();
      join.close();
    }
  }

  private interface IntMap {
    int apply(int x, int y);
  }

  private static Kernel map(IntMap f) {
    return context -> {
      ByteBuffer from = context.buffer(0);
      ByteBuffer to = context.buffer(1);
      for (int i = 0; i < N; i++) {
        to.putInt(i * 4, f.apply(from.getInt(i * 4), to.getInt(i * 4)));
      }
    };
  }

  private static Kernel sum() {
    return context -> {
      for (int i = 0; i < N; i++) {
        context
            .buffer(2)
            .putInt(i * 4, context.buffer(0).getInt(i * 4) + context.buffer(1).getInt(i * 4));
      }
    };
  }

  @Test
  void aForkJoinPipelineReplaysToTheResultsOfRunningItEagerly() throws Exception {
    assumeDeclared(Capability.GRAPHS);
    assumeDeclared(Capability.DEVICE_MEMORY);
    try (Pipeline pipeline = new Pipeline()) {
      pipeline.input(7);
      pipeline.enqueue();
      pipeline.main.synchronize();
      int[] eager = pipeline.output();
      assertArrayEquals(pipeline.expected(7), eager);

      Graph graph = pipeline.capture();
      assertEquals(2, graph.nodes().stream().mapToInt(GraphNode::lane).max().orElse(0) + 1);
      assertTrue(graph.description().contains(", 2 copies"), graph.description());
      for (int seed = 0; seed < 20; seed++) {
        pipeline.input(seed); // copies read the host buffer when a replay runs, as in CUDA
        await(graph.launch(pipeline.main));
        assertArrayEquals(pipeline.expected(seed), pipeline.output(), about("replay " + seed));
      }
      pipeline.main.synchronize();
    }
  }

  @Test
  void tenThousandReplaysRunEveryKernelOnceAndLeaveNothingBehind() throws Exception {
    assumeDeclared(Capability.GRAPHS);
    Stream main = newStream(0);
    Stream side = newStream(0);
    AtomicInteger first = new AtomicInteger();
    AtomicInteger second = new AtomicInteger();
    Graph graph;
    try (GraphCapture capture = main.beginCapture()) {
      main.launch("first", first::incrementAndGet);
      side.waitStream(main);
      side.launch("second", second::incrementAndGet);
      main.waitStream(side);
      graph = capture.end();
    }
    CompletionStage<Void> last = null;
    for (int i = 0; i < 10_000; i++) {
      last = graph.launch(main);
    }
    await(last);
    main.synchronize();
    assertEquals(10_000, first.get());
    assertEquals(10_000, second.get());
    assertEquals(0, main.pendingWork());
    assertEquals(0, side.pendingWork(), "the captured side stream ran none of the replays");
  }

  @Test
  void eightThreadsReplayOneGraphOnTheirOwnStreamsAtOnce() throws Exception {
    assumeDeclared(Capability.GRAPHS);
    AtomicInteger runs = new AtomicInteger();
    Stream main = newStream(0);
    Stream side = newStream(0);
    Graph graph;
    try (GraphCapture capture = main.beginCapture()) {
      main.launch("a", runs::incrementAndGet);
      side.waitStream(main);
      side.launch("b", runs::incrementAndGet);
      main.waitStream(side);
      main.launch("c", runs::incrementAndGet);
      graph = capture.end();
    }
    int threads = 8;
    int replays = 250;
    List<Thread> started = new java.util.ArrayList<>();
    List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
    for (int t = 0; t < threads; t++) {
      Thread thread =
          new Thread(
              () -> {
                try {
                  Stream own = newStream(0);
                  AtomicInteger order = new AtomicInteger();
                  for (int r = 0; r < replays; r++) {
                    graph.launch(own);
                    int expected = r + 1;
                    own.launch("check", () -> assertEquals(expected, order.incrementAndGet()));
                  }
                  own.synchronize();
                  assertEquals(replays, order.get());
                } catch (Throwable e) {
                  failures.add(e);
                }
              },
              "graph-replayer-" + t);
      started.add(thread);
      thread.start();
    }
    for (Thread thread : started) {
      thread.join(WAIT.toMillis());
      assertFalse(thread.isAlive(), thread.getName() + " did not finish in time");
    }
    assertEquals(List.of(), failures);
    assertEquals(threads * replays * 3, runs.get());
  }

  @Test
  void aReplayRunsInItsStreamsOrder() throws Exception {
    assumeDeclared(Capability.GRAPHS);
    Stream stream = newStream(0);
    List<String> ran = new java.util.concurrent.CopyOnWriteArrayList<>();
    Graph graph;
    try (GraphCapture capture = stream.beginCapture()) {
      stream.launch("in graph", () -> ran.add("graph"));
      graph = capture.end();
    }
    var gate = gate();
    hold(stream, gate);
    stream.launch("before", () -> ran.add("before"));
    CompletionStage<Void> replay = graph.launch(stream);
    stream.launch("after", () -> ran.add("after"));
    assertEquals(List.of(), ran, "the replay waits behind the held work");
    gate.countDown();
    await(replay);
    stream.synchronize();
    assertEquals(List.of("before", "graph", "after"), ran);
  }

  @Test
  void eventsRecordedInTheGraphAreRecordedByEachReplay() throws Exception {
    assumeDeclared(Capability.GRAPHS);
    Stream stream = newStream(0);
    Stream waiter = newStream(0);
    Event done = newEvent();
    AtomicInteger count = new AtomicInteger();
    Graph graph;
    try (GraphCapture capture = stream.beginCapture()) {
      stream.launch("count", count::incrementAndGet);
      done.record(stream);
      graph = capture.end();
    }
    assertEquals(0, count.get(), "capturing runs nothing");
    graph.launch(stream);
    waiter.waitEvent(done);
    AtomicInteger seen = new AtomicInteger();
    waiter.launch("after", () -> seen.set(count.get()));
    waiter.synchronize();
    assertEquals(1, seen.get());
    done.synchronize();
    assertTrue(done.query());
  }
}
