package dev.openaccel.opencl;

import static dev.openaccel.conformance.BackendTck.assertThrowsWith;
import static dev.openaccel.opencl.OpenClTestSupport.floats;
import static dev.openaccel.opencl.OpenClTestSupport.floatsOf;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.openaccel.conformance.Gates;
import dev.openaccel.openreg.OpenRegProvider;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.DeviceOutOfMemoryException;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.trace.TraceEvent;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Device kernels, Java kernels and copies on one opencl stream keep stream order; failures surface
 * at the next sync point and later work still runs; waits cross backends through the engine.
 */
@RequiresOpenCl
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StreamSemanticsTest {
  static final String SOURCE =
      """
      __kernel void addOne(__global float* x) { x[get_global_id(0)] += 1.0f; }
      __kernel void spin(__global float* x, int n) {
        float acc = 0;
        for (int i = 0; i < n; i++) acc = acc * 0.5f + 1.0f;
        x[0] = acc;
      }
      """;

  private Accelerator accelerator;
  private DeviceKernel addOne;
  private DeviceKernel spin;
  private Device device;

  /** Extra configuration of this class's accelerator. */
  String config() {
    return "";
  }

  @BeforeAll
  void start() {
    accelerator = OpenClTestSupport.start(config());
    DeviceProgram program = OpenCl.get(accelerator).compile(SOURCE);
    addOne = program.kernel("addOne");
    spin = program.kernel("spin");
    device = Device.of(OpenClProvider.TYPE, 0);
  }

  @AfterAll
  void close() {
    accelerator.close();
  }

  @Test
  void javaKernelsRunBetweenDeviceKernelsInStreamOrder() {
    Stream stream = accelerator.newStream(device);
    try (DeviceBuffer x = accelerator.allocate(device, 16)) {
      stream.copyToDevice(floats(1, 2, 3, 4), x);
      for (int i = 0; i < 100; i++) {
        addOne.launch(stream, LaunchShape.of(4), x);
      }
      stream.launch(
          "double",
          context -> {
            var values = context.buffer(0).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer();
            for (int i = 0; i < 4; i++) {
              values.put(i, values.get(i) * 2);
            }
          },
          x);
      addOne.launch(stream, LaunchShape.of(4), x);
      ByteBuffer out = ByteBuffer.allocate(16);
      stream.copyToHost(x, out);
      OpenClTestSupport.synchronize(stream);
      assertArrayEquals(new float[] {203, 205, 207, 209}, floatsOf(out));
    }
  }

  @Test
  void aFailingJavaKernelSurfacesAtTheNextSyncAndLaterDeviceWorkStillRuns() {
    Stream stream = accelerator.newStream(device);
    try (DeviceBuffer x = accelerator.allocate(device, 4)) {
      stream.copyToDevice(floats(0), x);
      stream.launch(
          "broken",
          () -> {
            throw new IllegalStateException("kernel bug");
          });
      addOne.launch(stream, LaunchShape.of(1), x);
      assertThrowsWith(
          DeviceExecutionException.class, "broken", () -> OpenClTestSupport.synchronize(stream));
      ByteBuffer out = ByteBuffer.allocateDirect(4);
      stream.copyToHost(x, out);
      OpenClTestSupport.synchronize(stream);
      assertEquals(1f, floatsOf(out)[0]);
    }
  }

  @Test
  void anOpenRegEventBlocksAnOpenClStreamAndTheReverse() throws Exception {
    assertThrowsWith(
        IllegalArgumentException.class,
        "does not match blocking stream's device type",
        () ->
            accelerator
                .newEvent(OpenRegProvider.TYPE, EventOptions.defaults())
                .block(accelerator.newStream(device)));
    Device openreg = Device.of(OpenRegProvider.TYPE, 0);
    Stream regStream = accelerator.newStream(openreg);
    Stream clStream = accelerator.newStream(device);
    CountDownLatch gate = new CountDownLatch(1);
    try (DeviceBuffer x = accelerator.allocate(device, 4)) {
      stream(clStream, x);
      regStream.launch("gate", () -> Gates.await(gate));
      Event fromReg = accelerator.newEvent(OpenRegProvider.TYPE, EventOptions.defaults());
      fromReg.record(regStream);
      // Event.block across device types is rejected as in torch; a stream waits on any stage.
      clStream.waitFor(fromReg.completion());
      addOne.launch(clStream, LaunchShape.of(1), x);
      Event fromCl = accelerator.newEvent(OpenClProvider.TYPE, EventOptions.defaults());
      fromCl.record(clStream);
      regStream.waitFor(fromCl.completion());
      var after = regStream.submit("after", () -> true);
      assertTrue(!fromCl.query(), "the opencl stream ran past an unfinished openreg event");
      gate.countDown();
      assertTrue(after.toCompletableFuture().get(10, TimeUnit.SECONDS));
      assertTrue(fromCl.query());
      ByteBuffer out = ByteBuffer.allocateDirect(4);
      clStream.copyToHost(x, out);
      OpenClTestSupport.synchronize(clStream);
      assertEquals(1f, floatsOf(out)[0]);
    } finally {
      gate.countDown();
    }
  }

  @Test
  void waitStreamOnAStreamOfAnotherBackendLeavesItsFailureForItsOwnSync() throws Exception {
    Stream regStream = accelerator.newStream(Device.of(OpenRegProvider.TYPE, 0));
    Stream clStream = accelerator.newStream(device);
    regStream.launch(
        "bad",
        () -> {
          throw new IllegalStateException("bad");
        });
    clStream.waitStream(regStream);
    assertThrows(
        DeviceExecutionException.class,
        () -> OpenClTestSupport.synchronize(clStream),
        "the waiting stream takes the failure in");
    assertThrows(
        DeviceExecutionException.class,
        () -> OpenClTestSupport.synchronize(regStream),
        "and the failing stream still reports it at its own next sync");
    OpenClTestSupport.synchronize(regStream); // reported once
  }

  @Test
  void waitStreamOnAStreamOfAnotherBackendMakesNoEvent() {
    ActorTestKit kit = ActorTestKit.create();
    TestProbe<TraceEvent> trace = kit.createTestProbe();
    accelerator.trace().subscribe(trace.ref());
    try {
      Stream regStream = accelerator.newStream(Device.of(OpenRegProvider.TYPE, 0));
      Stream clStream = accelerator.newStream(device);
      regStream.launch("ran", () -> {});
      clStream.waitStream(regStream);
      regStream.waitStream(clStream);
      regStream.launch("sentinel", () -> {}); // its trace follows whatever the waits published
      OpenClTestSupport.synchronize(regStream);
      for (TraceEvent seen = trace.receiveMessage(); ; seen = trace.receiveMessage()) {
        assertFalse(
            seen instanceof TraceEvent.EventCreated, "an event made by waitStream: " + seen);
        if (seen instanceof TraceEvent.KernelStarted started
            && started.kernel().equals("sentinel")) {
          break;
        }
      }
    } finally {
      accelerator.trace().unsubscribe(trace.ref());
      kit.shutdownTestKit();
    }
  }

  @Test
  void waitStreamOrdersStreamsOfTwoBackendsBothWays() throws Exception {
    Stream regStream = accelerator.newStream(Device.of(OpenRegProvider.TYPE, 0));
    Stream later = accelerator.newStream(Device.of(OpenRegProvider.TYPE, 0));
    Stream clStream = accelerator.newStream(device);
    CountDownLatch gate = new CountDownLatch(1);
    try (DeviceBuffer x = accelerator.allocate(device, 4)) {
      clStream.copyToDevice(floats(0), x);
      regStream.launch("gate", () -> Gates.await(gate));
      clStream.waitStream(regStream);
      addOne.launch(clStream, LaunchShape.of(1), x);
      ByteBuffer seen = ByteBuffer.allocateDirect(4);
      clStream.copyToHost(x, seen); // enqueued before the wait, which covers only earlier work
      later.waitStream(clStream);
      var after = later.submit("after", () -> floatsOf(seen)[0]);
      assertFalse(clStream.query(), "the opencl stream ran past unfinished openreg work");
      assertFalse(after.toCompletableFuture().isDone(), "openreg ran past unfinished opencl work");
      gate.countDown();
      assertEquals(1f, after.toCompletableFuture().get(10, TimeUnit.SECONDS));
    } finally {
      gate.countDown();
    }
  }

  @Test
  void aFailedSignalFailsTheNextSyncAndLaterWorkStillRuns() {
    Stream stream = accelerator.newStream(device);
    try (DeviceBuffer x = accelerator.allocate(device, 4)) {
      stream.copyToDevice(floats(1), x);
      stream.waitFor(CompletableFuture.failedFuture(new IllegalStateException("upstream broke")));
      assertThrowsWith(
          DeviceExecutionException.class,
          "upstream broke",
          () -> OpenClTestSupport.synchronize(stream));
      addOne.launch(stream, LaunchShape.of(1), x);
      ByteBuffer out = ByteBuffer.allocateDirect(4);
      stream.copyToHost(x, out);
      OpenClTestSupport.synchronize(stream);
      assertEquals(2f, floatsOf(out)[0]);
    }
  }

  @Test
  void timingEventsMeasureDeviceWorkBetweenThem() {
    Stream stream = accelerator.newStream(device);
    Event start = accelerator.newEvent(OpenClProvider.TYPE, EventOptions.timing());
    Event end = accelerator.newEvent(OpenClProvider.TYPE, EventOptions.timing());
    try (DeviceBuffer x = accelerator.allocate(device, 4 * 4096)) {
      start.record(stream);
      for (int i = 0; i < 50; i++) {
        addOne.launch(stream, LaunchShape.of(4096), x);
      }
      end.record(stream);
      assertTrue(end.synchronize(java.time.Duration.ofSeconds(10)), "end not reached in 10 s");
      assertTrue(start.elapsedTime(end) > 0, "elapsed " + start.elapsedTime(end));
    }
  }

  @Test
  void aRecordBehindWorkThatHasAllEndedIsCompleteWhenRecordReturns() throws Exception {
    Stream stream = accelerator.newStream(device);
    Event event = accelerator.newEvent(OpenClProvider.TYPE, EventOptions.defaults());
    CountDownLatch gate = new CountDownLatch(1);
    try (DeviceBuffer x = accelerator.allocate(device, 4 * 4096)) {
      addOne.launch(stream, LaunchShape.of(4096), x);
      stream.synchronize();
      event.record(stream);
      assertTrue(event.query(), "the device work before it has ended");
      assertTrue(event.completion().toCompletableFuture().isDone());
      stream.launch("gate", () -> Gates.await(gate));
      event.record(stream);
      assertFalse(event.query(), "a record behind work still running");
      gate.countDown();
      assertTrue(event.synchronize(java.time.Duration.ofSeconds(10)), "not reached in 10 s");
    } finally {
      gate.countDown();
      event.close();
    }
  }

  @Test
  void aRecordAStreamWaitsForCompletesWithoutWaitingForThatStreamsEarlierWork() throws Exception {
    assumeTrue(
        OpenClTestSupport.computeUnits() >= 2,
        "the two streams' kernels must be able to run at once");
    Stream a = accelerator.newStream(device);
    Stream b = accelerator.newStream(device);
    Event event = accelerator.newEvent(OpenClProvider.TYPE, EventOptions.timing());
    Event aStarted = accelerator.newEvent(OpenClProvider.TYPE, EventOptions.timing());
    Event bStarted = accelerator.newEvent(OpenClProvider.TYPE, EventOptions.timing());
    Event bEnded = accelerator.newEvent(OpenClProvider.TYPE, EventOptions.timing());
    try (DeviceBuffer x = accelerator.allocate(device, 4);
        DeviceBuffer y = accelerator.allocate(device, 4)) {
      aStarted.record(a);
      spin.launch(a, LaunchShape.of(1), x, 20_000_000); // a twentieth of b's
      event.record(a);
      bStarted.record(b);
      spin.launch(b, LaunchShape.of(1), y, 400_000_000); // about half a second
      bEnded.record(b);
      event.block(b); // on the device, behind b's longer kernel
      assertTrue(event.synchronize(java.time.Duration.ofSeconds(10)), "record not done in 10 s");
      boolean bStillBusy = !b.query();
      b.synchronizeAsync().toCompletableFuture().get(10, TimeUnit.SECONDS);
      if (!bStillBusy) {
        double aheadMs = event.elapsedTime(bEnded); // on the device clock
        assumeTrue(
            aheadMs > 0,
            "the device ran a's kernel after b's (a's record ended "
                + -aheadMs
                + " ms after b's kernel): nothing to tell");
        // NVIDIA's platform tells of ends in the order work reached the device, across queues:
        // if b's work got there first, a's record could not be told of before b's kernel ended
        double bFirstMs = bStarted.elapsedTime(aStarted);
        assumeTrue(
            bFirstMs < 0,
            "b's work reached the device "
                + bFirstMs
                + " ms before a's; this platform may tell of ends in that order");
        fail(
            "a's record ended on the device "
                + aheadMs
                + " ms before b's kernel, but completed only once that kernel had ended");
      }
    } finally {
      event.close();
      aStarted.close();
      bStarted.close();
      bEnded.close();
    }
  }

  @Test
  void aHeapBufferACopyFillsIsReadByALaterCopyOfTheStreamInOrder() {
    Stream stream = accelerator.newStream(device);
    roundTripsThroughAHeapBuffer(stream, (heap, y) -> stream.copyToDevice(heap, y), stream);
  }

  @Test
  void aHeapBufferAnotherStreamFillsIsReadAfterTheEventThatOrdersThem() {
    Stream a = accelerator.newStream(device);
    Stream b = accelerator.newStream(device);
    Event filled = accelerator.newEvent(OpenClProvider.TYPE, EventOptions.defaults());
    try {
      roundTripsThroughAHeapBuffer(
          a,
          (heap, y) -> {
            filled.record(a);
            b.waitEvent(filled); // on the device
            b.copyToDevice(heap, y);
          },
          b);
    } finally {
      filled.close();
    }
  }

  /**
   * Rounds of: {@code filler} copies a value into a device buffer behind a kernel that keeps it
   * busy, then into a heap buffer, which {@code carry} copies into a second device buffer (read
   * back on {@code reader}): the heap buffer must be read after the copy into it ended.
   */
  private void roundTripsThroughAHeapBuffer(
      Stream filler, java.util.function.BiConsumer<ByteBuffer, DeviceBuffer> carry, Stream reader) {
    try (DeviceBuffer busy = accelerator.allocate(device, 4);
        DeviceBuffer x = accelerator.allocate(device, 16);
        DeviceBuffer y = accelerator.allocate(device, 16)) {
      for (int round = 0; round < 20; round++) {
        ByteBuffer heap = heapOf(-1, -1, -1, -1);
        filler.copyToDevice(floats(round, 1, 2, 3), x);
        spin.launch(filler, LaunchShape.of(1), busy, 200_000); // the copies below wait behind it
        filler.copyToHost(x, heap); // fills the heap buffer when it ends
        carry.accept(heap, y); // reads it when it runs: after the copy before it
        ByteBuffer out = ByteBuffer.allocateDirect(16);
        reader.copyToHost(y, out);
        OpenClTestSupport.synchronize(reader);
        assertArrayEquals(new float[] {round, 1, 2, 3}, floatsOf(out), "round " + round);
      }
    }
  }

  @Test
  void javaKernelsOfTwoStreamsReadOneBufferAtOnce() {
    Stream a = accelerator.newStream(device);
    Stream b = accelerator.newStream(device);
    java.util.concurrent.atomic.AtomicInteger wrong =
        new java.util.concurrent.atomic.AtomicInteger();
    try (DeviceBuffer x = accelerator.allocate(device, 4)) {
      a.copyToDevice(floats(42), x);
      OpenClTestSupport.synchronize(a);
      for (int i = 0; i < 200; i++) {
        for (Stream s : new Stream[] {a, b}) {
          s.launch(
              "read",
              context -> {
                if (context.buffer(0).order(ByteOrder.LITTLE_ENDIAN).getFloat(0) != 42f) {
                  wrong.incrementAndGet();
                }
              },
              x);
        }
      }
      OpenClTestSupport.synchronize(a);
      OpenClTestSupport.synchronize(b);
      assertEquals(0, wrong.get(), "reads that did not see the buffer's value");
      ByteBuffer out = ByteBuffer.allocateDirect(4);
      a.copyToHost(x, out); // still the device's buffer after the views were given back
      OpenClTestSupport.synchronize(a);
      assertArrayEquals(new float[] {42}, floatsOf(out));
    }
  }

  private static ByteBuffer heapOf(float... values) {
    ByteBuffer heap = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
    heap.asFloatBuffer().put(values);
    return heap;
  }

  @Test
  void tooLargeAnAllocationIsDeviceOutOfMemory() {
    long capacity = accelerator.memoryStats(device).capacity();
    assertThrowsWith(
        DeviceOutOfMemoryException.class,
        "out of memory",
        () -> accelerator.allocate(device, capacity + 1));
  }

  @Test
  void aClosedBufferIsRejectedAtTheCall() {
    Stream stream = accelerator.newStream(device);
    DeviceBuffer x = accelerator.allocate(device, 16);
    x.close();
    assertThrowsWith(
        IllegalStateException.class,
        "closed buffer",
        () -> addOne.launch(stream, LaunchShape.of(4), x));
    assertThrowsWith(
        IllegalStateException.class,
        "closed buffer",
        () -> stream.copyToDevice(ByteBuffer.allocate(16), x));
  }

  private static void stream(Stream stream, DeviceBuffer x) {
    stream.copyToDevice(floats(0), x);
  }
}
