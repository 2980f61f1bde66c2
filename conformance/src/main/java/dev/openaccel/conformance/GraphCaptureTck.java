package dev.openaccel.conformance;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.Graph;
import dev.openaccel.runtime.GraphCapture;
import dev.openaccel.runtime.GraphNode;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.Capability;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Conformance of {@link Capability#GRAPHS}, the capture's side: the calls a capture forbids fail
 * naming the call and change nothing, a capture with a stream not joined back fails naming it and
 * leaves every stream usable, a failing kernel fails its replay only, a graph whose buffer was
 * closed is rejected at launch, and a graph shows its nodes, lanes and edges.
 */
public abstract class GraphCaptureTck extends BackendTck {

  @Test
  void whatACaptureForbidsFailsNamingTheCallAndChangesNothing() {
    assumeDeclared(Capability.GRAPHS);
    Stream stream = newStream(0);
    Stream other = newStream(0);
    Event outside = newEvent();
    outside.record(other);
    Event inside = newEvent();
    String phrase = "operation not permitted when stream is capturing";
    try (GraphCapture capture = stream.beginCapture()) {
      stream.launch("captured", () -> {});
      inside.record(stream);
      assertThrowsWith(IllegalStateException.class, "Stream.synchronize()", stream::synchronize);
      assertThrowsWith(IllegalStateException.class, "Stream.query()", stream::query);
      assertThrowsWith(IllegalStateException.class, phrase, stream::synchronizeAsync);
      assertThrowsWith(IllegalStateException.class, "Event.query()", inside::query);
      assertThrowsWith(IllegalStateException.class, "Event.synchronize()", inside::synchronize);
      assertThrowsWith(
          IllegalStateException.class,
          "recorded outside the capture",
          () -> stream.waitEvent(outside));
      assertThrowsWith(
          IllegalStateException.class, "submit('s')", () -> stream.submit("s", () -> 1));
      assertThrowsWith(
          IllegalStateException.class,
          phrase,
          () -> stream.waitFor(java.util.concurrent.CompletableFuture.completedFuture(null)));
      assertThrowsWith(
          IllegalStateException.class,
          "Accelerator.synchronize(",
          () -> accelerator().synchronize(device(0)));
      if (declares(Capability.DEVICE_MEMORY)) {
        try (var guard = accelerator().streamGuard(stream)) {
          assertThrowsWith(
              IllegalStateException.class,
              "allocating on",
              () -> accelerator().allocate(device(0), 64));
        }
      }
      assertEquals(2, capture.end().nodes().size(), "the kernel and the record only");
    }
    stream.launch("after", () -> {});
    stream.synchronize();
    assertTrue(inside.query(), "the captured record never ran: the event is as it was");
    outside.synchronize();
  }

  @Test
  void aCaptureWithAStreamNotJoinedBackFailsAndLeavesEveryStreamUsable() {
    assumeDeclared(Capability.GRAPHS);
    Stream stream = newStream(0);
    Stream side = newStream(0);
    Event fork = newEvent();
    try (GraphCapture capture = stream.beginCapture()) {
      fork.record(stream);
      side.waitEvent(fork);
      side.launch("left behind", () -> {});
      IllegalStateException unjoined = assertThrows(IllegalStateException.class, capture::end);
      assertTrue(unjoined.getMessage().contains(side.toString()), unjoined.getMessage());
      assertTrue(unjoined.getMessage().contains("'left behind'"), unjoined.getMessage());
    }
    AtomicInteger ran = new AtomicInteger();
    stream.launch("main again", ran::incrementAndGet);
    side.launch("side again", ran::incrementAndGet);
    stream.synchronize();
    side.synchronize();
    assertEquals(2, ran.get());
  }

  @Test
  void aFailingKernelFailsItsReplayAndTheNextReplayRunsNormally() throws Exception {
    assumeDeclared(Capability.GRAPHS);
    Stream stream = newStream(0);
    AtomicBoolean fail = new AtomicBoolean(true);
    AtomicInteger after = new AtomicInteger();
    Graph graph;
    try (GraphCapture capture = stream.beginCapture()) {
      stream.launch(
          "flaky",
          () -> {
            if (fail.get()) {
              throw new IllegalStateException("flaked");
            }
          });
      stream.launch("after flaky", after::incrementAndGet);
      graph = capture.end();
    }
    ExecutionException failed =
        assertThrows(ExecutionException.class, () -> await(graph.launch(stream)));
    DeviceExecutionException cause =
        assertInstanceOf(DeviceExecutionException.class, failed.getCause());
    assertTrue(cause.getMessage().contains("kernel 'flaky' failed"), cause.getMessage());
    assertThrows(DeviceExecutionException.class, stream::synchronize, "the stream reports it too");
    fail.set(false);
    await(graph.launch(stream));
    stream.synchronize();
    assertEquals(2, after.get());
  }

  @Test
  void aGraphWhoseBufferWasClosedIsRejectedAtLaunch() {
    assumeDeclared(Capability.GRAPHS);
    assumeDeclared(Capability.DEVICE_MEMORY);
    Stream stream = newStream(0);
    DeviceBuffer buffer = accelerator().allocate(device(0), 64);
    Graph graph;
    try (GraphCapture capture = stream.beginCapture()) {
      stream.copyToDevice(ByteBuffer.allocate(64), buffer);
      graph = capture.end();
    }
    buffer.close();
    IllegalStateException closed =
        assertThrows(IllegalStateException.class, () -> graph.launch(stream));
    assertTrue(closed.getMessage().contains(buffer.toString()), closed.getMessage());
  }

  @Test
  void theGraphShowsItsNodesLanesAndEdges() {
    assumeDeclared(Capability.GRAPHS);
    Stream stream = newStream(0);
    Stream side = newStream(0);
    Event fork = newEvent();
    Event join = newEvent();
    Graph graph;
    try (GraphCapture capture = stream.beginCapture()) {
      stream.launch("k0", () -> {});
      fork.record(stream);
      side.waitEvent(fork);
      side.launch("k1", () -> {});
      join.record(side);
      stream.waitEvent(join);
      graph = capture.end();
    }
    List<GraphNode> nodes = graph.nodes();
    assertEquals(
        List.of(
            GraphNode.Kind.KERNEL,
            GraphNode.Kind.RECORD,
            GraphNode.Kind.WAIT,
            GraphNode.Kind.KERNEL,
            GraphNode.Kind.RECORD,
            GraphNode.Kind.WAIT),
        nodes.stream().map(GraphNode::kind).toList());
    assertEquals(List.of(0, 0, 1, 1, 1, 0), nodes.stream().map(GraphNode::lane).toList());
    assertEquals(List.of(1), nodes.get(2).dependencies(), "the fork's wait follows the record");
    assertEquals(List.of(1, 4), nodes.get(5).dependencies(), "the join waits for the side");
    assertTrue(graph.toDot().contains("n1 -> n2;"), graph.toDot());
    assertTrue(graph.toDot().contains("n4 -> n5;"), graph.toDot());
    assertTrue(graph.description().contains("2 lanes, 6 nodes"), graph.description());
  }

  @Test
  void withBuffersRunsAJavaKernelNodeOverOtherBuffersOfTheSameShape() throws Exception {
    assumeDeclared(Capability.GRAPHS);
    assumeDeclared(Capability.DEVICE_MEMORY);
    Stream stream = newStream(0);
    Event done = newEvent();
    try (DeviceBuffer first = accelerator().allocate(device(0), 64);
        DeviceBuffer second = accelerator().allocate(device(0), 64);
        DeviceBuffer small = accelerator().allocate(device(0), 32)) {
      stream.copyToDevice(ByteBuffer.allocate(64), first);
      stream.copyToDevice(ByteBuffer.allocate(64), second);
      Graph graph;
      try (GraphCapture capture = stream.beginCapture()) {
        stream.launch(
            "fill",
            context -> {
              for (int i = 0; i < 64; i++) {
                context.buffer(0).put(i, (byte) 7);
              }
            },
            first);
        done.record(stream);
        graph = capture.end();
      }
      Graph other = graph.withBuffers(0, second);
      await(other.launch(stream));
      ByteBuffer firstBytes = ByteBuffer.allocate(64);
      ByteBuffer secondBytes = ByteBuffer.allocate(64);
      stream.copyToHost(first, firstBytes);
      stream.copyToHost(second, secondBytes);
      stream.synchronize();
      byte[] sevens = new byte[64];
      java.util.Arrays.fill(sevens, (byte) 7);
      assertArrayEquals(
          new byte[64], firstBytes.array(), "the original graph's buffer is untouched");
      assertArrayEquals(sevens, secondBytes.array());
      assertThrowsWith(
          IllegalArgumentException.class,
          "buffer 0 must be of 64 bytes",
          () -> graph.withBuffers(0, small));
      assertThrowsWith(
          IllegalArgumentException.class, "got node 2", () -> graph.withBuffers(2, second));
      assertThrowsWith(
          IllegalArgumentException.class,
          "is not a Java kernel over buffers",
          () -> graph.withBuffers(1, second));
      assertThrowsWith(
          IllegalArgumentException.class,
          "is not a device kernel",
          () -> graph.withArguments(0, 1));
    }
  }
}
