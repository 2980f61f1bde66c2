package dev.openaccel.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The device-queue layer on its own: markers, device-side waits, callbacks, copies. */
@RequiresOpenCl
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClQueueTest {
  /** Long enough (tens of ms on a CPU device) that a wait not done on the device would show. */
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
  private ClMemory memory;
  private ClProgram program;
  private DeviceKernel slowSet;
  private DeviceKernel copyFirst;

  @BeforeAll
  void start() {
    var found = (ClPlatforms.Found) ClPlatforms.probe(OpenClSettings.from(ConfigFactory.load()));
    context = new ClContext(found);
    memory = new ClMemory(context);
    program = new ClProgram(context, SOURCE, "");
    slowSet = new DeviceKernel(program, "slowSet", null);
    copyFirst = new DeviceKernel(program, "copyFirst", null);
  }

  @AfterAll
  void close() {
    slowSet.release();
    copyFirst.release();
    program.close();
    context.close();
  }

  private static CompletableFuture<Long> future() {
    return new CompletableFuture<>();
  }

  private static long await(CompletableFuture<Long> f) throws Exception {
    return f.get(10, TimeUnit.SECONDS);
  }

  private ClLaunch launch(DeviceKernel kernel, Object... args) {
    return new ClLaunch(
        kernel,
        LaunchShape.of(1),
        KernelArguments.encode(kernel.name(), kernel.parameters(), args));
  }

  @Test
  void aMarkerCompletesAfterTheKernelBeforeIt() throws Exception {
    try (ClQueue queue = new ClQueue(context, 0, true)) {
      long x = memory.allocate(0, 4, 4);
      CompletableFuture<Long> kernel = future();
      CompletableFuture<Long> marker = future();
      queue.submit(
          launch(slowSet, new RawBuffer(x, 4), 1, 100_000),
          RawBuffer::memOf,
          GatedStreamWork.completion(kernel));
      queue.mark(GatedStreamWork.completion(marker));
      long markerEnd = await(marker);
      assertTrue(kernel.isDone(), "the marker completed before the kernel enqueued before it");
      assertTrue(markerEnd >= await(kernel), "marker end " + markerEnd + " before the kernel's");
      memory.free(x);
    }
  }

  @Test
  void aQueueWaitsOnTheDeviceForAMarkerOfAnotherDevicesQueue() throws Exception {
    int other = context.devices().size() > 1 ? 1 : 0;
    try (ClQueue a = new ClQueue(context, 0, true);
        ClQueue b = new ClQueue(context, other, true)) {
      long x = memory.allocate(0, 4, 4);
      long y = memory.allocate(other, 4, 4);
      CompletableFuture<Long> copied = future();
      a.submit(
          launch(slowSet, new RawBuffer(x, 4), 42, 2_000_000),
          RawBuffer::memOf,
          GatedStreamWork.completion(future()));
      ClMarker marker = a.mark(GatedStreamWork.completion(future()));
      assertTrue(b.waitFor(marker));
      b.submit(
          launch(copyFirst, new RawBuffer(x, 4), new RawBuffer(y, 4)),
          RawBuffer::memOf,
          GatedStreamWork.completion(copied));
      await(copied);
      ByteBuffer out = ByteBuffer.allocateDirect(4).order(ByteOrder.nativeOrder());
      CompletableFuture<Long> read = future();
      b.read(y, 0, out, GatedStreamWork.completion(read));
      await(read);
      assertEquals(42, out.getInt(0));
      memory.free(x);
      memory.free(y);
    }
  }

  @Test
  void waitingForACompletedMarkerEnqueuesNothingStale() throws Exception {
    try (ClQueue a = new ClQueue(context, 0, true);
        ClQueue b = new ClQueue(context, 0, true)) {
      CompletableFuture<Long> done = future();
      ClMarker marker = a.mark(GatedStreamWork.completion(done));
      await(done);
      assertTrue(b.waitFor(marker));
      CompletableFuture<Long> after = future();
      b.mark(GatedStreamWork.completion(after));
      assertTrue(await(after) > 0);
    }
  }

  @Test
  void aMarkerOfAnotherContextIsNotWaitedOnTheDevice() throws Exception {
    var found = (ClPlatforms.Found) ClPlatforms.probe(OpenClSettings.from(ConfigFactory.load()));
    try (ClContext second = new ClContext(found);
        ClQueue foreign = new ClQueue(second, 0, true);
        ClQueue queue = new ClQueue(context, 0, true)) {
      CompletableFuture<Long> done = future();
      ClMarker marker = foreign.mark(GatedStreamWork.completion(done));
      assertFalse(queue.waitFor(marker));
      await(done);
    }
  }

  @Test
  void copiesRoundTripThroughTheDevice() throws Exception {
    try (ClQueue queue = new ClQueue(context, 0, true)) {
      long a = memory.allocate(0, 8, 8);
      long b = memory.allocate(0, 8, 8);
      ByteBuffer in = ByteBuffer.allocateDirect(8).putLong(0, 0x0102030405060708L);
      ByteBuffer out = ByteBuffer.allocateDirect(8);
      CompletableFuture<Long> read = future();
      queue.write(in, a, 0, GatedStreamWork.completion(future()));
      queue.copy(a, b, 8, GatedStreamWork.completion(future()));
      queue.read(b, 0, out, GatedStreamWork.completion(read));
      await(read);
      assertEquals(0x0102030405060708L, out.getLong(0));
      memory.free(a);
      memory.free(b);
    }
  }

  @Test
  void anEnqueueErrorIsReportedToTheCompletionWithItsName() throws Exception {
    try (ClQueue queue = new ClQueue(context, 0, true)) {
      long small = memory.allocate(0, 8, 8);
      CompletableFuture<Long> done = future();
      queue.copy(small, small, 16, GatedStreamWork.completion(done));
      var e =
          org.junit.jupiter.api.Assertions.assertThrows(
              java.util.concurrent.ExecutionException.class, () -> await(done));
      assertTrue(
          e.getCause().getMessage().contains("clEnqueueCopyBuffer failed: CL_INVALID_VALUE (-30)"),
          e.getCause().getMessage());
      memory.free(small);
    }
  }
}
