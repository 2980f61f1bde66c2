package dev.openaccel.opencl;

import static dev.openaccel.conformance.BackendTck.assertThrowsWith;
import static dev.openaccel.opencl.DeviceGraphTest.await;
import static dev.openaccel.opencl.DeviceGraphTest.ints;
import static dev.openaccel.opencl.OpenClTestSupport.floats;
import static dev.openaccel.opencl.OpenClTestSupport.floatsOf;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.Graph;
import dev.openaccel.runtime.GraphCapture;
import dev.openaccel.runtime.GraphNode;
import dev.openaccel.runtime.Stream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A graph's device kernel nodes on OpenCL: {@code withArguments} makes a graph whose launch takes
 * other scalars and buffers of the same shape, also inside a command buffer, and rejects others
 * naming the argument; a checked kernel that fails in a replay fails that replay only.
 */
@RequiresOpenCl
class DeviceGraphNodesTest {
  private static final String SOURCE =
      """
      __kernel void axpy(float a, __global const float* x, __global float* y) {
        size_t i = get_global_id(0);
        y[i] += a * x[i];
      }
      __kernel void twice(__global float* y) { y[get_global_id(0)] *= 2.0f; }
      __kernel void pick(__global const int* index, __global int* y) { y[index[0]] = 7; }
      """;
  private static final int N = 16;

  private Accelerator accelerator;
  private Device device;
  private Stream stream;

  @BeforeEach
  void start() {
    accelerator = OpenClTestSupport.start();
    device = Device.of(OpenClProvider.TYPE, 0);
    stream = accelerator.newStream(device);
  }

  @AfterEach
  void close() {
    accelerator.close();
  }

  @Test
  void withArgumentsChangesAScalarAndABufferBetweenLaunches() throws Exception {
    DeviceProgram program = OpenCl.get(accelerator).compile(SOURCE);
    try (DeviceBuffer ones = accelerator.allocate(device, N * 4L);
        DeviceBuffer tens = accelerator.allocate(device, N * 4L);
        DeviceBuffer y = accelerator.allocate(device, N * 4L);
        DeviceBuffer small = accelerator.allocate(device, 8)) {
      stream.copyToDevice(floats(filled(1)), ones);
      stream.copyToDevice(floats(filled(10)), tens);
      Graph graph;
      try (GraphCapture capture = stream.beginCapture()) {
        stream.copyToDevice(floats(filled(0)), y);
        program.kernel("axpy").launch(stream, LaunchShape.of(N), 2.0f, ones, y);
        program.kernel("twice").launch(stream, LaunchShape.of(N), y);
        graph = capture.end();
      }
      int axpy = nodeNamed(graph, "axpy");
      assertTrue(graph.description().contains("as one OpenCL command buffer"));
      Graph changed = graph.withArguments(axpy, 3.0f, tens, y);

      await(changed.launch(stream));
      assertArrayEquals(filled(60), read(y), "(0 + 3 * 10) * 2");
      await(graph.launch(stream));
      assertArrayEquals(filled(4), read(y), "the captured graph is unchanged: (0 + 2 * 1) * 2");
      await(changed.launch(stream));
      assertArrayEquals(filled(60), read(y));

      assertThrowsWith(
          IllegalArgumentException.class,
          "takes 3 arguments",
          () -> graph.withArguments(axpy, 3.0f, tens));
      assertThrowsWith(
          IllegalArgumentException.class,
          "argument 0 (float a) needs a Float, got Integer 3",
          () -> graph.withArguments(axpy, 3, tens, y));
      IllegalArgumentException size =
          assertThrows(
              IllegalArgumentException.class, () -> graph.withArguments(axpy, 3.0f, small, y));
      assertTrue(
          size.getMessage().contains("argument 1 (__global float* x): expected a buffer of 64"),
          size.getMessage());
      assertTrue(size.getMessage().contains("got " + small), size.getMessage());
      assertThrowsWith(
          IllegalArgumentException.class,
          "is not a device kernel",
          () -> graph.withArguments(0, 3.0f, tens, y));
    }
  }

  @Test
  void aCheckedKernelFailingInAReplayFailsThatReplayNamingItAndTheNextRunsNormally()
      throws Exception {
    DeviceProgram checked =
        OpenCl.get(accelerator).compile(SOURCE, ProgramOptions.defaults().checked(true));
    ByteBuffer index = ByteBuffer.allocateDirect(4).order(ByteOrder.LITTLE_ENDIAN);
    ByteBuffer result = ByteBuffer.allocateDirect(N * 4).order(ByteOrder.LITTLE_ENDIAN);
    try (DeviceBuffer onDevice = accelerator.allocate(device, 4);
        DeviceBuffer y = accelerator.allocate(device, N * 4L)) {
      stream.copyToDevice(ByteBuffer.allocate(N * 4), y);
      Graph graph;
      try (GraphCapture capture = stream.beginCapture()) {
        stream.copyToDevice(index.duplicate(), onDevice);
        checked.kernel("pick").launch(stream, LaunchShape.of(1), onDevice, y);
        stream.copyToHost(y, result.duplicate());
        graph = capture.end();
      }
      index.putInt(0, N + 100);
      ExecutionException failed =
          assertThrows(ExecutionException.class, () -> await(graph.launch(stream)));
      DeviceExecutionException cause =
          assertInstanceOf(DeviceExecutionException.class, failed.getCause());
      assertTrue(cause.getMessage().contains("'pick' failed"), cause.getMessage());
      KernelBoundsException bounds =
          assertInstanceOf(KernelBoundsException.class, cause.getCause());
      assertEquals(N + 100, bounds.index());
      assertThrows(
          DeviceExecutionException.class,
          () -> OpenClTestSupport.synchronize(stream),
          "the stream reports it too");

      index.putInt(0, 3);
      await(graph.launch(stream));
      OpenClTestSupport.synchronize(stream);
      assertEquals(7, ints(result)[3], "the next replay ran normally");
    }
  }

  private static int nodeNamed(Graph graph, String name) {
    return graph.nodes().stream()
        .filter(node -> node.name().equals(name))
        .mapToInt(GraphNode::index)
        .findFirst()
        .orElseThrow();
  }

  private float[] read(DeviceBuffer buffer) {
    ByteBuffer out = ByteBuffer.allocateDirect((int) buffer.size());
    stream.copyToHost(buffer, out);
    OpenClTestSupport.synchronize(stream);
    return floatsOf(out);
  }

  private static float[] filled(float value) {
    float[] values = new float[N];
    java.util.Arrays.fill(values, value);
    return values;
  }
}
