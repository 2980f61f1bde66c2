package dev.openaccel.opencl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.Graph;
import dev.openaccel.runtime.GraphCapture;
import dev.openaccel.runtime.Stream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Graphs of device kernels (compiled OpenCL C) and device copies on OpenCL: a captured fork/join
 * pipeline replays to what running it eagerly gives, its lanes' runs of kernels and device copies
 * as command buffers; 10,000 replays leave no buffer use, command, event or command buffer behind;
 * eight threads replay one graph at once on streams of their own.
 */
@RequiresOpenCl
class DeviceGraphTest {
  static final String SOURCE =
      """
      __kernel void scale(__global const int* x, __global int* y, int k) {
        size_t i = get_global_id(0);
        y[i] = k * x[i];
      }
      __kernel void square(__global const int* x, __global int* y) {
        size_t i = get_global_id(0);
        y[i] = x[i] * x[i];
      }
      __kernel void add_one(__global int* y) { y[get_global_id(0)] += 1; }
      __kernel void sum(__global const int* a, __global const int* b, __global int* out) {
        size_t i = get_global_id(0);
        out[i] = a[i] + b[i];
      }
      __kernel void count(__global int* c) { atomic_inc(&c[get_global_id(0)]); }
      """;
  static final int N = 256;
  private static final LaunchShape SHAPE = LaunchShape.of(N);
  private static final long WAIT_SECONDS = 30;

  private Accelerator accelerator;
  private Device device;
  private DeviceProgram program;
  private OpenClBackend backend;

  @BeforeEach
  void start() {
    accelerator = OpenClTestSupport.start();
    device = Device.of(OpenClProvider.TYPE, 0);
    program = OpenCl.get(accelerator).compile(SOURCE);
    backend = OpenClSystem.of(accelerator.system()).backend();
  }

  @AfterEach
  void close() {
    accelerator.close();
  }

  /** The pipeline: heap and direct host copies, kernels and a device copy on two streams. */
  final class Pipeline implements AutoCloseable {
    final Stream main = accelerator.newStream(device);
    final Stream side = accelerator.newStream(device);
    final Event fork = accelerator.newEvent();
    final Event join = accelerator.newEvent();
    final DeviceBuffer a = buffer();
    final DeviceBuffer b = buffer();
    final DeviceBuffer copied = buffer();
    final DeviceBuffer c = buffer();
    final DeviceBuffer out = buffer();
    final ByteBuffer in = ByteBuffer.allocate(N * 4).order(ByteOrder.LITTLE_ENDIAN);
    final ByteBuffer heapResult = ByteBuffer.allocate(N * 4).order(ByteOrder.LITTLE_ENDIAN);
    final ByteBuffer directResult = ByteBuffer.allocateDirect(N * 4).order(ByteOrder.LITTLE_ENDIAN);

    void enqueue() {
      main.copyToDevice(in.duplicate(), a);
      program.kernel("scale").launch(main, SHAPE, a, b, 3);
      main.copy(b, copied);
      fork.record(main);
      side.waitEvent(fork);
      program.kernel("square").launch(side, SHAPE, a, c);
      program.kernel("add_one").launch(side, SHAPE, c);
      join.record(side);
      main.waitEvent(join);
      program.kernel("sum").launch(main, SHAPE, copied, c, out);
      main.copyToHost(out, heapResult.duplicate());
      main.copyToHost(out, directResult.duplicate());
    }

    void input(int seed) {
      for (int i = 0; i < N; i++) {
        in.putInt(i * 4, seed * 7 + i - N / 2);
      }
    }

    int[] heapOutput() {
      return ints(heapResult);
    }

    int[] directOutput() {
      return ints(directResult);
    }

    Graph capture() {
      try (GraphCapture capture = main.beginCapture()) {
        enqueue();
        return capture.end();
      }
    }

    @Override
    public void close() {
      List.of(a, b, copied, c, out).forEach(DeviceBuffer::close);
      fork.close();
      join.close();
    }
  }

  @Test
  void aForkJoinPipelineReplaysToWhatRunningItEagerlyGives() throws Exception {
    try (Pipeline pipeline = new Pipeline()) {
      pipeline.input(-1);
      Graph graph = pipeline.capture();
      String description = graph.description();
      assertTrue(
          description.contains("nodes 1, 2 (lane 0) as one OpenCL command buffer"), description);
      assertTrue(
          description.contains("nodes 5, 6 (lane 1) as one OpenCL command buffer"), description);
      assertTrue(description.contains("4 device nodes as per-node enqueues"), description);
      for (int seed = 0; seed < 12; seed++) {
        pipeline.input(seed); // read by the eager run, and by the replay when it runs
        pipeline.enqueue();
        OpenClTestSupport.synchronize(pipeline.main);
        int[] eager = pipeline.heapOutput();
        assertEquals(expected(seed, 0), eager[0], "the eager run itself");
        assertArrayEquals(eager, pipeline.directOutput());

        pipeline.heapResult.clear().put(new byte[N * 4]).clear();
        pipeline.directResult.clear().put(new byte[N * 4]).clear();
        await(graph.launch(pipeline.main));
        assertArrayEquals(eager, pipeline.heapOutput(), "replay with seed " + seed);
        assertArrayEquals(eager, pipeline.directOutput(), "replay with seed " + seed);
      }
    }
  }

  private static int expected(int seed, int i) {
    int x = seed * 7 + i - N / 2;
    return 3 * x + x * x + 1;
  }

  @Test
  void tenThousandReplaysLeaveNoBufferUseCommandEventOrCommandBufferBehind() throws Exception {
    ClDeviceMemory memory = backend.memory();
    ClCommandBuffers commandBuffers = backend.commandBuffers();
    long buffersBefore = memory.liveBuffers();
    long objectsBefore = commandBuffers.liveObjects();
    Stream main = accelerator.newStream(device);
    Stream side = accelerator.newStream(device);
    DeviceBuffer x = buffer();
    DeviceBuffer y = buffer();
    DeviceBuffer z = buffer();
    ByteBuffer zero = ByteBuffer.allocate(N * 4);
    ByteBuffer result = ByteBuffer.allocate(N * 4).order(ByteOrder.LITTLE_ENDIAN);
    main.copyToDevice(zero.duplicate(), x);
    main.copyToDevice(zero.duplicate(), y);
    OpenClTestSupport.synchronize(main);
    DeviceKernel count = program.kernel("count");
    Graph graph;
    try (GraphCapture capture = main.beginCapture()) {
      count.launch(main, SHAPE, x);
      count.launch(main, SHAPE, x);
      side.waitStream(main);
      count.launch(side, SHAPE, y);
      side.copy(y, z);
      main.waitStream(side);
      main.copyToHost(z, result.duplicate()); // a heap copy: staging memory per replay
      graph = capture.end();
    }
    int replays = 10_000;
    CompletionStage<Void> last = null;
    for (int i = 0; i < replays; i++) {
      last = graph.launch(main);
    }
    await(last);
    OpenClTestSupport.synchronize(main);
    assertEquals(replays, ints(result)[N - 1], "the copy of the last replay");
    ByteBuffer counted = ByteBuffer.allocate(N * 4).order(ByteOrder.LITTLE_ENDIAN);
    main.copyToHost(x, counted);
    OpenClTestSupport.synchronize(main);
    assertEquals(2 * replays, ints(counted)[0]);
    assertEquals(0, main.pendingWork());
    assertEquals(0, side.pendingWork());
    // two command buffers and their three kernel copies, recorded once; no replay's event is left
    assertEquals(objectsBefore + 5, commandBuffers.liveObjects());

    List.of(x, y, z).forEach(DeviceBuffer::close);
    accelerator.emptyCache(device);
    assertEquals(buffersBefore, memory.liveBuffers(), "every replay gave its buffer uses back");
    accelerator.close();
    assertEquals(0, commandBuffers.liveObjects(), "closing released the graph's command buffers");
    assertEquals(0, memory.liveBuffers());
  }

  @Test
  void eightThreadsReplayOneGraphOnTheirOwnStreamsAtOnce() throws Exception {
    Stream main = accelerator.newStream(device);
    Stream side = accelerator.newStream(device);
    DeviceBuffer counts = buffer();
    main.copyToDevice(ByteBuffer.allocate(N * 4), counts);
    OpenClTestSupport.synchronize(main);
    DeviceKernel count = program.kernel("count");
    Graph graph;
    try (GraphCapture capture = main.beginCapture()) {
      count.launch(main, SHAPE, counts);
      count.launch(main, SHAPE, counts);
      side.waitStream(main);
      count.launch(side, SHAPE, counts);
      main.waitStream(side);
      graph = capture.end();
    }
    int threads = 8;
    int replays = 100;
    List<Throwable> failures = new CopyOnWriteArrayList<>();
    List<Thread> started = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Thread thread =
          new Thread(
              () -> {
                try {
                  Stream own = accelerator.newStream(device);
                  AtomicInteger order = new AtomicInteger();
                  for (int r = 0; r < replays; r++) {
                    graph.launch(own);
                    int expected = r + 1;
                    own.launch("check", () -> assertEquals(expected, order.incrementAndGet()));
                  }
                  OpenClTestSupport.synchronize(own);
                  assertEquals(replays, order.get());
                } catch (Throwable e) {
                  failures.add(e);
                }
              },
              "device-graph-replayer-" + t);
      started.add(thread);
      thread.start();
    }
    for (Thread thread : started) {
      thread.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
      assertFalse(thread.isAlive(), thread.getName() + " did not finish in time");
    }
    assertEquals(List.of(), failures);
    ByteBuffer result = ByteBuffer.allocate(N * 4).order(ByteOrder.LITTLE_ENDIAN);
    main.copyToHost(counts, result);
    OpenClTestSupport.synchronize(main);
    int[] expected = new int[N];
    java.util.Arrays.fill(expected, threads * replays * 3);
    assertArrayEquals(expected, ints(result), "every kernel of every replay ran once");
  }

  private DeviceBuffer buffer() {
    return accelerator.allocate(device, N * 4L);
  }

  static int[] ints(ByteBuffer bytes) {
    int[] values = new int[bytes.capacity() / 4];
    bytes.duplicate().order(ByteOrder.LITTLE_ENDIAN).clear().asIntBuffer().get(values);
    return values;
  }

  static void await(CompletionStage<Void> stage) throws Exception {
    stage.toCompletableFuture().get(WAIT_SECONDS, TimeUnit.SECONDS);
  }
}
