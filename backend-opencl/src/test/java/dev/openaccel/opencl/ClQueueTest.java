package dev.openaccel.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.lwjgl.opencl.CL10.CL_COMPLETE;
import static org.lwjgl.opencl.CL10.CL_OUT_OF_RESOURCES;
import static org.lwjgl.opencl.CL10.clFlush;
import static org.lwjgl.opencl.CL10.clReleaseEvent;
import static org.lwjgl.opencl.CL11.clCreateUserEvent;
import static org.lwjgl.opencl.CL11.clSetUserEventStatus;
import static org.lwjgl.opencl.CL12.nclEnqueueMarkerWithWaitList;

import com.typesafe.config.ConfigFactory;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.Completion;
import dev.openaccel.runtime.spi.Marker;
import dev.openaccel.runtime.trace.TraceEvent;
import dev.openaccel.runtime.trace.Tracer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongToIntFunction;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.lwjgl.system.MemoryStack;

/** The device-queue layer without the engine: markers, device-side waits, callbacks, copies. */
@RequiresOpenCl
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClQueueTest {
  /** Long enough (milliseconds on a CPU device) that a wait not done on the device would show. */
  static final String SOURCE =
      """
      __kernel void slowSet(__global int* x, int value, int spins) {
        float acc = 0;
        for (int i = 0; i < spins; i++) acc = acc * 0.5f + 1.0f;
        x[0] = value + (acc < 0 ? 1 : 0);
      }
      __kernel void copyFirst(__global const int* from, __global int* to) { to[0] = from[0]; }
      """;

  private ClContext context;
  private ClDeviceMemory memory;
  private ClProgram program;
  private DeviceKernel slowSet;
  private DeviceKernel copyFirst;

  /** How the queues' commands report their ends in this class. */
  Completions completions() {
    return Completions.CALLBACKS;
  }

  @BeforeAll
  void start() {
    var found = OpenClTestSupport.platform();
    context = new ClContext(found, completions());
    memory = new ClDeviceMemory(context, 0);
    program = new ClProgram(context, SOURCE, "");
    slowSet = new DeviceKernel(program, "slowSet", null);
    copyFirst = new DeviceKernel(program, "copyFirst", null);
  }

  @AfterAll
  void close() {
    slowSet.release();
    copyFirst.release();
    program.close();
    memory.release();
    context.close();
  }

  /** A completion that completes {@code future} with the device time, or fails it. */
  static Completion into(CompletableFuture<Long> future) {
    return new Completion() {
      @Override
      public void complete(long deviceNanos) {
        future.complete(deviceNanos);
      }

      @Override
      public void fail(Throwable cause) {
        future.completeExceptionally(cause);
      }
    };
  }

  private static long await(CompletableFuture<Long> f) throws Exception {
    return f.get(10, TimeUnit.SECONDS);
  }

  /** A region of {@link #memory} as a buffer argument; closing it gives the region back. */
  private record Buf(ClRegion region) implements DeviceBuffer {
    @Override
    public Device device() {
      return region.device();
    }

    @Override
    public long size() {
      return region.size();
    }

    @Override
    public void recordStream(Stream stream) {}

    @Override
    public void close() {
      region.release();
    }
  }

  /** Resolves the test's buffers; enqueues nothing (the tests submit to their queues directly). */
  private final LaunchTarget target =
      new LaunchTarget() {
        @Override
        public ClRegion region(DeviceBuffer buffer, String use) {
          return ((Buf) buffer).region();
        }

        @Override
        public void enqueue(Stream stream, ClLaunch launch) {
          throw new UnsupportedOperationException("the tests submit launches to their queues");
        }
      };

  private Buf buffer(int device, long bytes) {
    return new Buf(memory.reserve(Device.of(OpenClProvider.TYPE, device), bytes));
  }

  private ClLaunch launch(DeviceKernel kernel, Object... args) {
    return new ClLaunch(
        kernel,
        kernel.name(),
        LaunchShape.of(1),
        KernelArguments.encode(kernel.name(), kernel.parameters(), args, target));
  }

  @Test
  void aMarkerBetweenKernelsIsReportedBeforeTheLaterKernelEnds() throws Exception {
    try (ClQueue queue = new ClQueue(context, 0, true);
        Buf x = buffer(0, 4)) {
      CompletableFuture<Long> first = new CompletableFuture<>();
      CompletableFuture<Long> marker = new CompletableFuture<>();
      CompletableFuture<Long> later = new CompletableFuture<>();
      queue.submit(launch(slowSet, x, 1, 20_000_000), into(first)); // running when the marker comes
      Marker record = queue.mark(into(marker)); // live until it completed, as the engine keeps it
      queue.submit(launch(slowSet, x, 2, 400_000_000), into(later)); // about half a second
      queue.flush();
      await(marker);
      assertFalse(later.isDone(), "the marker was reported only once the kernel after it ended");
      assertTrue(first.isDone());
      record.release();
      await(later);
    }
  }

  @Test
  void aMarkerCompletesAfterTheKernelBeforeItWithALaterDeviceTime() throws Exception {
    try (ClQueue queue = new ClQueue(context, 0, true);
        Buf x = buffer(0, 4)) {
      CompletableFuture<Long> kernel = new CompletableFuture<>();
      CompletableFuture<Long> marker = new CompletableFuture<>();
      queue.submit(launch(slowSet, x, 1, 100_000), into(kernel));
      queue.mark(into(marker)).release();
      queue.flush(); // as a stream does once it has submitted all it has
      long markerEnd = await(marker);
      assertTrue(kernel.isDone(), "the marker completed before the kernel enqueued before it");
      assertTrue(markerEnd >= await(kernel), "marker end " + markerEnd + " before the kernel's");
    }
  }

  @Test
  void aQueueWaitsOnTheDeviceForAMarkerOfAnotherDevicesQueue() throws Exception {
    int other = context.devices().size() > 1 ? 1 : 0;
    try (ClQueue a = new ClQueue(context, 0, true);
        ClQueue b = new ClQueue(context, other, true);
        Buf x = buffer(0, 4);
        Buf y = buffer(other, 4)) {
      a.submit(launch(slowSet, x, 42, 2_000_000), into(new CompletableFuture<>()));
      CompletableFuture<Long> marked = new CompletableFuture<>();
      ClMarker marker = (ClMarker) a.mark(into(marked));
      a.flush();
      CompletableFuture<Long> waited = new CompletableFuture<>();
      assertTrue(b.waitFor(marker, into(waited)));
      b.submit(launch(copyFirst, x, y), into(new CompletableFuture<>()));
      ByteBuffer out = ByteBuffer.allocateDirect(4).order(java.nio.ByteOrder.nativeOrder());
      CompletableFuture<Long> read = new CompletableFuture<>();
      b.submit(new ClCopy.ToHost(y.region(), out), into(read));
      b.flush();
      await(read);
      assertEquals(42, out.getInt(0));
      assertTrue(
          await(waited) >= await(marked), "the barrier ended before the marker it waits for");
      marker.release();
    }
  }

  @Test
  void aMarkerABarrierWaitsForIsReportedThroughTheBarriersQueue() throws Exception {
    try (ClQueue a = new ClQueue(context, 0, true);
        ClQueue b = new ClQueue(context, 0, true);
        Buf x = buffer(0, 4)) {
      CompletableFuture<Long> kernel = new CompletableFuture<>();
      CompletableFuture<Long> marked = new CompletableFuture<>();
      CompletableFuture<Long> waited = new CompletableFuture<>();
      a.submit(
          launch(slowSet, x, 7, 2_000_000), into(kernel)); // its callback decides for the marker
      ClMarker marker = (ClMarker) a.mark(into(marked));
      assertTrue(b.waitFor(marker, into(waited)));
      assertTrue(marker.reported(), "the barrier did not take the report over");
      b.flush(); // the barrier is the last command of b: it must get a way to be reported
      long markerEnd = await(marked);
      assertTrue(await(waited) >= markerEnd, "the barrier ended before the marker it waits for");
      assertTrue(markerEnd >= await(kernel), "the marker ended before the kernel before it");
      marker.release();
    }
  }

  @Test
  void aMarkerABarrierWaitsForIsReportedBeforeTheWorkBehindThatBarrierEnds() throws Exception {
    try (ClQueue a = new ClQueue(context, 0, true);
        ClQueue b = new ClQueue(context, 0, true);
        Buf x = buffer(0, 4);
        Buf y = buffer(0, 4)) {
      CompletableFuture<Long> marked = new CompletableFuture<>();
      CompletableFuture<Long> later = new CompletableFuture<>();
      a.submit(launch(slowSet, x, 1, 20_000_000), into(new CompletableFuture<>()));
      ClMarker marker = (ClMarker) a.mark(into(marked));
      a.flush();
      assertTrue(b.waitFor(marker, into(new CompletableFuture<>())));
      b.submit(launch(slowSet, y, 2, 400_000_000), into(later)); // about half a second
      b.flush();
      await(marked);
      assertFalse(later.isDone(), "the marker was reported only once the work behind the barrier");
      marker.release();
      await(later);
    }
  }

  @Test
  void aBarrierBehindOnlyMarkersOfItsQueueStillReportsTheMarkerItWaitsFor() throws Exception {
    try (ClQueue a = new ClQueue(context, 0, true);
        ClQueue b = new ClQueue(context, 0, true);
        Buf x = buffer(0, 4)) {
      CompletableFuture<Long> marked = new CompletableFuture<>();
      CompletableFuture<Long> own = new CompletableFuture<>();
      a.submit(launch(slowSet, x, 1, 2_000_000), into(new CompletableFuture<>()));
      ClMarker marker = (ClMarker) a.mark(into(marked));
      ClMarker first = (ClMarker) b.mark(into(own)); // b records, then waits: a common pattern
      assertTrue(b.waitFor(marker, into(new CompletableFuture<>())));
      assertTrue(marker.reported(), "b's own record in front kept the barrier from reporting");
      b.flush();
      await(own);
      assertTrue(await(marked) > 0);
      marker.release();
      first.release();
    }
  }

  @Test
  void aMarkerIsNotReportedThroughABarrierThatWaitsBehindLongerWork() throws Exception {
    long gate = userEvent();
    try (ClQueue a = new ClQueue(context, 0, true);
        ClQueue b = new ClQueue(context, 0, true);
        Buf x = buffer(0, 4)) {
      CompletableFuture<Long> earlier = new CompletableFuture<>();
      CompletableFuture<Long> marked = new CompletableFuture<>();
      b.submit(new GatedBarrier(gate), into(earlier)); // pending until the test opens the gate
      b.flush();
      a.submit(launch(slowSet, x, 1, 2_000_000), into(new CompletableFuture<>()));
      ClMarker marker = (ClMarker) a.mark(into(marked)); // its kernel's callback is outstanding
      a.flush();
      assertTrue(b.waitFor(marker, into(new CompletableFuture<>())));
      b.flush();
      await(marked); // before, reported only with the barrier behind the gate: never, here
      assertFalse(earlier.isDone(), "the gate is still closed");
      marker.release();
      assertEquals(0, clSetUserEventStatus(gate, CL_COMPLETE));
      await(earlier);
    } finally {
      clSetUserEventStatus(gate, CL_COMPLETE); // never a failure: PoCL aborts on a failed gate
      clReleaseEvent(gate);
    }
  }

  /** A user event of the test's context, not complete until the test completes it. */
  private long userEvent() {
    try (MemoryStack stack = MemoryStack.stackPush()) {
      IntBuffer rc = stack.mallocInt(1);
      long event = clCreateUserEvent(context.handle(), rc);
      assertEquals(0, rc.get(0), "clCreateUserEvent");
      return event;
    }
  }

  /** Queue work that ends once {@code gate} completes and takes no compute unit meanwhile. */
  private record GatedBarrier(long gate) implements ClWork {
    @Override
    public int enqueue(long queue, long eventAddress) {
      return ClBarrier.enqueueOn(queue, gate, eventAddress);
    }

    @Override
    public String name() {
      return "gated barrier";
    }

    @Override
    public void enqueued() {}
  }

  /** Queue work whose enqueue (a marker) waits until {@code go} opens, once it has counted down. */
  private record SlowToEnqueue(CountDownLatch entered, CountDownLatch go) implements ClWork {
    @Override
    public int enqueue(long queue, long eventAddress) {
      entered.countDown();
      try {
        go.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return nclEnqueueMarkerWithWaitList(queue, 0, 0L, eventAddress);
    }

    @Override
    public String name() {
      return "slow to enqueue";
    }

    @Override
    public void enqueued() {}
  }

  /** What a test does while it waits. */
  private interface Step {
    void run() throws Exception;
  }

  /**
   * Runs {@code during} while another thread is inside the enqueue of a {@link SlowToEnqueue}
   * (completing {@code slow}), which goes on once {@code during} has returned or thrown.
   */
  private static void whileAnEnqueueIsUnderWay(
      ClQueue queue, CompletableFuture<Long> slow, Step during) throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch go = new CountDownLatch(1);
    Thread submitter =
        new Thread(() -> queue.submit(new SlowToEnqueue(entered, go), into(slow)), "submitter");
    submitter.start();
    try {
      assertTrue(entered.await(10, TimeUnit.SECONDS));
      during.run();
    } finally {
      go.countDown();
      submitter.join(10_000);
    }
  }

  /** Completes and releases a gate (never fails it: PoCL aborts on a failed gate). */
  private static void open(long gate) {
    clSetUserEventStatus(gate, CL_COMPLETE);
    clReleaseEvent(gate);
  }

  @Test
  void aReportDoesNotWaitForAnEnqueueInProgress() throws Exception {
    long gate = userEvent();
    try (ClQueue queue = new ClQueue(context, 0, true)) {
      CompletableFuture<Long> gated = new CompletableFuture<>();
      CompletableFuture<Long> slow = new CompletableFuture<>();
      queue.submit(new GatedBarrier(gate), into(gated)); // first in its run: reported
      whileAnEnqueueIsUnderWay(
          queue,
          slow,
          () -> {
            assertEquals(0, clSetUserEventStatus(gate, CL_COMPLETE));
            await(gated); // while the other enqueue is still under way
            assertFalse(slow.isDone());
          });
      queue.flush();
      await(slow);
    } finally {
      open(gate);
    }
  }

  @Test
  void whatAReportEndsIsCompletedBeforeItsMarkerWaitsForAnEnqueueInProgress() throws Exception {
    long gate = userEvent();
    try (ClQueue queue = new ClQueue(context, 0, true)) {
      CompletableFuture<Long> gated = new CompletableFuture<>();
      CompletableFuture<Long> behind = new CompletableFuture<>();
      CompletableFuture<Long> slow = new CompletableFuture<>();
      queue.submit(new GatedBarrier(gate), into(gated)); // first in its run: reported
      queue.submit(new GatedBarrier(gate), into(behind)); // not: the next report arms a marker
      queue.flush();
      whileAnEnqueueIsUnderWay(
          queue,
          slow,
          () -> {
            assertEquals(0, clSetUserEventStatus(gate, CL_COMPLETE));
            await(gated); // the marker for the rest waits for the enqueue; this completion does not
          });
      queue.flush();
      await(behind);
      await(slow);
    } finally {
      open(gate);
    }
  }

  @Test
  void aFlushedQueueReportsEveryCommandWithoutACallbackOfItsOwn() throws Exception {
    try (ClQueue a = new ClQueue(context, 0, true);
        ClQueue b = new ClQueue(context, 0, true)) {
      CompletableFuture<Long> marked = new CompletableFuture<>();
      ClMarker marker = (ClMarker) a.mark(into(marked));
      CompletableFuture<Long> waited = new CompletableFuture<>();
      assertTrue(b.waitFor(marker, into(waited)));
      b.flush();
      assertTrue(await(waited) >= await(marked));
      marker.release();
    }
  }

  @Test
  void aReleasedMarkerIsNotWaitedFor() throws Exception {
    try (ClQueue a = new ClQueue(context, 0, true);
        ClQueue b = new ClQueue(context, 0, true)) {
      CompletableFuture<Long> done = new CompletableFuture<>();
      ClMarker marker = (ClMarker) a.mark(into(done));
      await(done);
      marker.release();
      marker.release();
      assertFalse(b.waitFor(marker, into(new CompletableFuture<>())));
    }
  }

  @Test
  void aMarkerOfAnotherContextIsNotWaitedOnTheDevice() throws Exception {
    var found = OpenClTestSupport.platform();
    try (ClContext second = new ClContext(found, completions());
        ClQueue foreign = new ClQueue(second, 0, true);
        ClQueue queue = new ClQueue(context, 0, true)) {
      CompletableFuture<Long> done = new CompletableFuture<>();
      ClMarker marker = (ClMarker) foreign.mark(into(done));
      assertFalse(queue.waitFor(marker, into(new CompletableFuture<>())));
      await(done);
      marker.release();
    }
  }

  @Test
  void copiesOfHeapAndDirectBuffersRoundTripThroughTheDevice() throws Exception {
    try (ClQueue queue = new ClQueue(context, 0, true);
        Buf a = buffer(0, 8);
        Buf b = buffer(0, 8)) {
      ByteBuffer in = ByteBuffer.allocate(8).putLong(0, 0x0102030405060708L);
      ByteBuffer out = ByteBuffer.allocate(8);
      CompletableFuture<Long> read = new CompletableFuture<>();
      queue.submit(new ClCopy.ToDevice(in, a.region()), into(new CompletableFuture<>()));
      queue.submit(new ClCopy.Between(a.region(), b.region(), 8), into(new CompletableFuture<>()));
      queue.submit(new ClCopy.ToHost(b.region(), out), into(read));
      queue.flush();
      await(read);
      assertEquals(0x0102030405060708L, out.getLong(0));
    }
  }

  @Test
  void anEnqueueErrorIsReportedToTheCompletionWithItsName() throws Exception {
    try (ClQueue queue = new ClQueue(context, 0, true);
        Buf x = buffer(0, 4)) {
      CompletableFuture<Long> done = new CompletableFuture<>();
      queue.submit(
          new ClLaunch(
              slowSet,
              "slowSet",
              LaunchShape.of(8192).local(8192),
              KernelArguments.encode(
                  "slowSet", slowSet.parameters(), new Object[] {x, 1, 1}, target)),
          into(done));
      ExecutionException e = assertThrows(ExecutionException.class, () -> await(done));
      assertTrue(
          e.getCause()
              .getMessage()
              .contains("launch of slowSet [8192] / [8192] failed: CL_INVALID_"),
          e.getCause().getMessage());
    }
  }

  @Test
  void aCommandThatThrowsAsItIsEnqueuedFailsAloneAndTheMarkerBeforeItIsStillReported()
      throws Exception {
    try (ClQueue queue = new ClQueue(context, 0, true);
        Buf x = buffer(0, 4)) {
      CompletableFuture<Long> kernel = new CompletableFuture<>();
      CompletableFuture<Long> marker = new CompletableFuture<>();
      CompletableFuture<Long> thrown = new CompletableFuture<>();
      queue.submit(launch(slowSet, x, 1, 2_000_000), into(kernel)); // reported on its own
      queue.mark(into(marker)); // the tail; the next command makes it report itself
      ClWork throwing =
          new ClWork() {
            @Override
            public int enqueue(long handle, long eventAddress) {
              throw new OpenClException("clSetKernelArg(k, 0 float a)", -51);
            }

            @Override
            public String name() {
              return "throwing";
            }

            @Override
            public void enqueued() {}
          };
      queue.submit(throwing, into(thrown));
      ExecutionException e = assertThrows(ExecutionException.class, () -> await(thrown));
      assertTrue(
          e.getCause().getMessage().contains("clSetKernelArg(k, 0 float a)"),
          e.getCause().getMessage());
      await(kernel);
      await(marker); // its report was promised before the throw; it must still come
    }
  }

  @Test
  void withTracingEveryCommandIsOneSpanThoughFewHaveAReportOfTheirOwn() throws Exception {
    ActorTestKit kit =
        ActorTestKit.create(
            ConfigFactory.parseString("pekko.actor.typed.library-extensions = []")
                .withFallback(ConfigFactory.load("application-test")));
    try {
      Tracer tracer = new Tracer(kit.system());
      TestProbe<TraceEvent> probe = kit.createTestProbe();
      tracer.subscribe(probe.ref());
      Stream stream = ClTraceTest.stream(Device.of(OpenClProvider.TYPE, 0), 9);
      int count = 200;
      try (ClQueue queue = new ClQueue(context, stream, true, tracer);
          Buf x = buffer(0, 4)) {
        CompletableFuture<Long> last = new CompletableFuture<>();
        for (int i = 0; i < count; i++) {
          queue.submit(
              launch(slowSet, x, i, 1000), into(i < count - 1 ? new CompletableFuture<>() : last));
        }
        queue.flush();
        await(last);
      }
      for (int i = 0; i < count; i++) {
        TraceEvent first = probe.receiveMessage(Duration.ofSeconds(10));
        TraceEvent second = probe.receiveMessage(Duration.ofSeconds(10));
        var started = assertInstanceOf(TraceEvent.KernelStarted.class, first, "span " + i);
        var finished = assertInstanceOf(TraceEvent.KernelFinished.class, second, "span " + i);
        assertEquals("slowSet", finished.kernel(), "span " + i);
        assertFalse(finished.failed(), "span " + i);
        assertTrue(started.atNanos() <= finished.atNanos(), "span " + i + " ends before it starts");
      }
      probe.expectNoMessage(Duration.ofMillis(100));
    } finally {
      kit.shutdownTestKit();
    }
  }

  @Test
  void aReportAfterCloseCompletesItsCommandAndTouchesTheReleasedQueueNoMore() throws Exception {
    ClQueue queue = new ClQueue(context, 0, true);
    try (Buf x = buffer(0, 4)) {
      CompletableFuture<Long> running = new CompletableFuture<>();
      CompletableFuture<Long> behind = new CompletableFuture<>();
      queue.submit(launch(slowSet, x, 1, 20_000_000), into(running)); // still running at close
      queue.submit(launch(slowSet, x, 2, 10), into(behind)); // no report of its own
      queue.flush();
      queue.close();
      // its report comes after the release, and must neither arm a marker for the command behind
      // it nor flush: the handle is released (a clFlush on a freed queue killed the JVM once)
      await(running);
      assertTrue(running.isDone() && !running.isCompletedExceptionally());
      await(behind); // reported by the marker close enqueued (before, it never ended)
    }
  }

  /** A completion that counts its calls and remembers a failure. */
  private static final class Counting implements Completion {
    final AtomicInteger calls = new AtomicInteger();
    final CountDownLatch done = new CountDownLatch(1);
    volatile Throwable failure;

    @Override
    public void complete(long deviceNanos) {
      calls.incrementAndGet();
      done.countDown();
    }

    @Override
    public void fail(Throwable cause) {
      failure = cause;
      calls.incrementAndGet();
      done.countDown();
    }
  }

  /** Each of {@code all} completes (within 20 s in all), once, and without a failure. */
  private static void awaitEach(List<Counting> all) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    for (int i = 0; i < all.size(); i++) {
      Counting c = all.get(i);
      long left = Math.max(1, deadline - System.nanoTime());
      assertTrue(c.done.await(left, TimeUnit.NANOSECONDS), "command " + i + " never completed");
      assertEquals(null, c.failure, "command " + i);
    }
    for (int i = 0; i < all.size(); i++) {
      assertEquals(1, all.get(i).calls.get(), "completions of command " + i);
    }
  }

  @Test
  void aRandomMixOfKernelsMarkersAndFlushesCompletesEachOnce() throws Exception {
    Random random = new Random(1);
    try (Buf x = buffer(0, 4)) {
      for (int round = 0; round < 20; round++) {
        List<Counting> all = new ArrayList<>();
        List<Marker> markers = new ArrayList<>();
        try (ClQueue queue = new ClQueue(context, 0, true)) {
          for (int i = 0; i < 200; i++) {
            Counting c = new Counting();
            all.add(c);
            if (random.nextInt(10) < 7) {
              queue.submit(launch(slowSet, x, i, random.nextInt(3000)), c);
            } else {
              markers.add(queue.mark(c));
            }
            if (random.nextInt(8) == 0) {
              queue.flush();
            }
          }
          queue.flush();
          awaitEach(all);
        }
        markers.forEach(Marker::release);
      }
    }
  }

  @Test
  void closingRightAfterAFlushWhileReportsArriveStillEndsEveryCommand() throws Exception {
    Random random = new Random(7);
    try (Buf x = buffer(0, 4)) {
      for (int round = 0; round < 100; round++) {
        List<Counting> all = new ArrayList<>();
        ClQueue queue = new ClQueue(context, 0, true);
        int commands = 1 + random.nextInt(100);
        for (int i = 0; i < commands; i++) {
          Counting c = new Counting();
          all.add(c);
          queue.submit(launch(slowSet, x, i, random.nextInt(500)), c);
          if (random.nextInt(16) == 0) {
            queue.flush();
          }
        }
        queue.flush();
        queue.close(); // reports of some commands are on their way, others still to come
        awaitEach(all);
      }
    }
  }

  @Test
  void closingBehindAReleasedRecordStillEndsTheCommandsBeforeIt() throws Exception {
    long gate = userEvent();
    ClQueue queue = new ClQueue(context, 0, true);
    try (Buf x = buffer(0, 4)) {
      CompletableFuture<Long> gated = new CompletableFuture<>();
      CompletableFuture<Long> kernel = new CompletableFuture<>();
      CompletableFuture<Long> marked = new CompletableFuture<>();
      queue.submit(new GatedBarrier(gate), into(gated)); // first in its run: reported
      queue.submit(launch(slowSet, x, 1, 10), into(kernel));
      queue.mark(into(marked)).release(); // a record whose marker the engine let go of
      queue.flush(); // a report is outstanding: arms nothing
      queue.close();
      assertEquals(0, clSetUserEventStatus(gate, CL_COMPLETE));
      await(gated);
      await(kernel); // reported by the marker close enqueued behind the record's
      await(marked);
    } finally {
      open(gate);
    }
  }

  @Test
  void aHeapCopyEndingAfterCloseDoesNotWriteTheCallersBuffer() throws Exception {
    long gate = userEvent();
    ClQueue queue = new ClQueue(context, 0, true);
    try (Buf x = buffer(0, 4)) {
      ByteBuffer value = ByteBuffer.allocate(4).order(ByteOrder.nativeOrder()).putInt(0, 42);
      CompletableFuture<Long> written = new CompletableFuture<>();
      queue.submit(new ClCopy.ToDevice(value, x.region()), into(written));
      queue.flush();
      await(written);
      ByteBuffer heap = ByteBuffer.allocate(4).order(ByteOrder.nativeOrder());
      CompletableFuture<Long> read = new CompletableFuture<>();
      queue.submit(new GatedBarrier(gate), into(new CompletableFuture<>())); // reported
      queue.submit(new ClCopy.ToHost(x.region(), heap), into(read)); // behind it, no report
      queue.flush();
      queue.close(); // the stream stopped: the engine failed the copy before closing its queue
      assertEquals(0, clSetUserEventStatus(gate, CL_COMPLETE));
      await(read); // ended: its staging memory is back
      assertEquals(0, heap.getInt(0), "the caller's buffer was written after the stream stopped");
    } finally {
      open(gate);
    }
  }

  @Test
  void everyCommandCompletesThoughFewHaveTheirOwnCallback() throws Exception {
    try (ClQueue queue = new ClQueue(context, 0, true);
        Buf x = buffer(0, 4)) {
      int count = 300;
      java.util.List<CompletableFuture<Long>> done = new java.util.ArrayList<>();
      for (int i = 0; i < count; i++) {
        CompletableFuture<Long> f = new CompletableFuture<>();
        done.add(f);
        queue.submit(launch(slowSet, x, i, 10), into(f));
      }
      ByteBuffer out = ByteBuffer.allocate(4).order(java.nio.ByteOrder.nativeOrder());
      CompletableFuture<Long> read = new CompletableFuture<>();
      queue.submit(new ClCopy.ToHost(x.region(), out), into(read));
      queue.flush();
      await(read);
      for (CompletableFuture<Long> f : done) {
        assertTrue(f.isDone(), "a command before the read did not complete");
      }
      assertEquals(count - 1, out.getInt(0), "the heap read saw the last kernel's value");
      // One run of submissions: its first command, then at most one per 64 (whenever no report
      // is outstanding), then the flush's; not one per command or per report.
      long most = 1 + count / 64 + 1;
      assertTrue(
          queue.reports() <= most,
          "reports asked for: "
              + queue.reports()
              + " for "
              + (count + 1)
              + " commands, most "
              + most);
    }
  }

  /** A command that counts its ends and tells {@code ended} of the first. */
  private record Counted(ClWork inner, AtomicInteger ends, CountDownLatch ended) implements ClWork {
    Counted(ClWork inner) {
      this(inner, new AtomicInteger(), new CountDownLatch(1));
    }

    @Override
    public int enqueue(long queue, long eventAddress) {
      return inner.enqueue(queue, eventAddress);
    }

    @Override
    public String name() {
      return inner.name();
    }

    @Override
    public void enqueued() {
      inner.enqueued();
    }

    @Override
    public void ended(boolean completed) {
      ends.incrementAndGet();
      inner.ended(completed);
      ended.countDown();
    }
  }

  /** A completion that counts its calls and keeps the first failure. */
  private static final class Calls implements Completion {
    final AtomicInteger calls = new AtomicInteger();
    final CompletableFuture<Long> outcome = new CompletableFuture<>();

    @Override
    public void complete(long deviceNanos) {
      calls.incrementAndGet();
      outcome.complete(deviceNanos);
    }

    @Override
    public void fail(Throwable cause) {
      calls.incrementAndGet();
      outcome.completeExceptionally(cause);
    }

    String failure() {
      assertTrue(outcome.isCompletedExceptionally(), "completed: " + outcome);
      ExecutionException e = assertThrows(ExecutionException.class, outcome::get);
      return e.getCause().getMessage();
    }
  }

  @Test
  void aQueueWhoseFlushFailsIsLostAndFailsAtOnceWhatItHoldsAndWhatComesLater() throws Exception {
    AtomicBoolean failFlush = new AtomicBoolean();
    LongToIntFunction flush = q -> failFlush.get() ? CL_OUT_OF_RESOURCES : clFlush(q);
    try (ClQueue a = new ClQueue(context, 0, true, flush);
        ClQueue b = new ClQueue(context, 0, true);
        Buf x = buffer(0, 4)) {
      Counted kernel = new Counted(launch(slowSet, x, 1, 20_000_000));
      Calls kernelDone = new Calls();
      Calls markerDone = new Calls();
      a.submit(kernel, kernelDone); // first in its run: its report is registered and flushed
      ClMarker marker = (ClMarker) a.mark(markerDone);
      failFlush.set(true);
      a.flush(); // the stream ran dry: this flush fails

      String expected = "clFlush failed: CL_OUT_OF_RESOURCES (-5); the queue is lost";
      assertTrue(kernelDone.failure().startsWith(expected), kernelDone.failure());
      assertTrue(markerDone.failure().startsWith(expected), markerDone.failure());

      Counted later = new Counted(launch(slowSet, x, 2, 1));
      Calls laterDone = new Calls();
      a.submit(later, laterDone);
      assertTrue(laterDone.failure().startsWith(expected), laterDone.failure());
      assertEquals(1, later.ends().get(), "a refused command ends once, not completed");
      Calls laterMark = new Calls();
      assertEquals(null, a.mark(laterMark));
      assertTrue(laterMark.failure().startsWith(expected), laterMark.failure());
      assertFalse(
          b.waitFor(marker, new Calls()), "no queue waits on the device for a lost queue's marker");

      // The kernel was enqueued before: its end still arrives, frees what it holds, and completes
      // nothing twice.
      assertTrue(kernel.ended().await(10, TimeUnit.SECONDS), "the kernel's end never arrived");
      assertEquals(1, kernel.ends().get());
      assertEquals(1, kernelDone.calls.get(), "the failed completion is not completed again");
      assertEquals(1, markerDone.calls.get());
      marker.release();
    }
  }

  @Test
  void commandsABarrierReportsEndOnceTheirStreamStoppedAndReleasedTheMarker() throws Exception {
    try (Buf x = buffer(0, 4)) {
      ClQueue a = new ClQueue(context, 0, true);
      try (ClQueue b = new ClQueue(context, 0, true)) {
        a.submit(launch(slowSet, x, 1, 200_000_000), into(new CompletableFuture<>())); // reported
        Counted between = new Counted(launch(slowSet, x, 2, 1)); // left to the marker's report
        a.submit(between, into(new CompletableFuture<>()));
        ClMarker marker = (ClMarker) a.mark(into(new CompletableFuture<>()));
        a.flush();
        assertTrue(b.waitFor(marker, into(new CompletableFuture<>())), "b's barrier reports it");
        b.mark(into(new CompletableFuture<>())).release();
        b.flush();
        // a's stream stops while its kernel runs: the engine abandons the record and releases it.
        marker.release();
        a.close();
        assertTrue(
            between.ended().await(10, TimeUnit.SECONDS),
            "the command before the released marker never ended (its staging memory would leak)");
        assertEquals(1, between.ends().get());
      }
    }
  }

  @Test
  void aLostQueueStillEndsTheCommandsBehindItsLastReportWhenTheDeviceRunsThem() throws Exception {
    AtomicBoolean failFlush = new AtomicBoolean();
    LongToIntFunction flush = q -> failFlush.get() ? CL_OUT_OF_RESOURCES : clFlush(q);
    try (ClQueue a = new ClQueue(context, 0, true, flush);
        Buf x = buffer(0, 4)) {
      Counted first = new Counted(launch(slowSet, x, 1, 20_000_000));
      a.submit(first, new Calls()); // first in its run: reported on its own
      Counted behind = new Counted(launch(slowSet, x, 2, 1));
      a.submit(behind, new Calls()); // left to the report the flush arms
      failFlush.set(true);
      a.flush(); // fails: the queue is lost
      assertTrue(first.ended().await(10, TimeUnit.SECONDS));
      assertTrue(
          behind.ended().await(10, TimeUnit.SECONDS),
          "the command behind the last report never ended (its staging memory would leak)");
    }
  }

  @Test
  void aLostQueuesBarrierHandsTheReportOfAHealthyQueuesMarkerBack() throws Exception {
    long gate = userEvent();
    AtomicBoolean failFlush = new AtomicBoolean();
    LongToIntFunction flush = q -> failFlush.get() ? CL_OUT_OF_RESOURCES : clFlush(q);
    try (ClQueue a = new ClQueue(context, 0, true);
        ClQueue b = new ClQueue(context, 0, true, flush);
        Buf x = buffer(0, 4)) {
      assertEquals(0, ClBarrier.enqueueOn(b.handle(), gate, 0L)); // holds b's own marker back
      ClMarker own = (ClMarker) b.mark(into(new CompletableFuture<>())); // its report outstanding
      CompletableFuture<Long> marked = new CompletableFuture<>();
      a.submit(launch(slowSet, x, 1, 2_000_000), into(new CompletableFuture<>()));
      ClMarker marker = (ClMarker) a.mark(into(marked));
      a.flush();
      assertTrue(b.waitFor(marker, into(new CompletableFuture<>())));
      assertTrue(marker.reported(), "b's barrier is to report a's marker");
      failFlush.set(true);
      b.flush(); // b is lost
      assertFalse(marker.reported(), "the report went back to a");
      assertEquals(0, clSetUserEventStatus(gate, CL_COMPLETE));
      marked.get(10, TimeUnit.SECONDS); // a's record completes though b is lost
      marker.release();
      own.release();
    } finally {
      clSetUserEventStatus(gate, CL_COMPLETE);
      clReleaseEvent(gate);
    }
  }
}
