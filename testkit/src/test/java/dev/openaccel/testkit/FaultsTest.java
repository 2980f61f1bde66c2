package dev.openaccel.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.DeviceOutOfMemoryException;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.MemoryStats;
import dev.openaccel.runtime.Stream;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Each injected fault surfaces where the API says a real one does, and the stream runs on. */
@OpenAccelTest
class FaultsTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  @Test
  void theNextKernelFailsAtTheSynchronizeThatCoversItAndTheStreamRunsOn(Accelerator accelerator) {
    try (Stream stream = accelerator.newStream()) {
      List<String> ran = Collections.synchronizedList(new ArrayList<>());
      IllegalStateException injected = new IllegalStateException("injected");
      Faults.on(accelerator).failNext(stream, injected);
      stream.launch("first", () -> ran.add("first"));
      stream.launch("second", () -> ran.add("second"));

      DeviceExecutionException failure =
          assertThrows(DeviceExecutionException.class, stream::synchronize);
      assertSame(injected, failure.getCause());
      assertEquals(
          "kernel 'first' failed on " + stream + ": java.lang.IllegalStateException: injected",
          failure.getMessage());
      assertEquals(List.of("second"), ran, "the failed kernel never ran; the next one did");
      stream.launch("third", () -> ran.add("third"));
      stream.synchronize();
      assertEquals(List.of("second", "third"), ran);
    }
  }

  @Test
  void theNthKernelFailsAndNoOther(Accelerator accelerator) throws Exception {
    try (Stream stream = accelerator.newStream()) {
      Faults.on(accelerator).failNth(stream, 3, new ArithmeticException("third"));
      List<Throwable> outcomes = new ArrayList<>();
      for (int i = 1; i <= 4; i++) {
        int n = i;
        outcomes.add(
            stream
                .submit("k" + n, () -> n)
                .handle((value, failure) -> failure)
                .toCompletableFuture()
                .get(WAIT.toSeconds(), TimeUnit.SECONDS));
      }
      assertEquals(null, outcomes.get(0));
      assertEquals(null, outcomes.get(1));
      assertTrue(outcomes.get(2) instanceof DeviceExecutionException, () -> "" + outcomes);
      assertTrue(outcomes.get(2).getCause() instanceof ArithmeticException);
      assertEquals(null, outcomes.get(3));
      stream.synchronize(); // a submit's failure is reported by its stage only
    }
  }

  @Test
  void aKernelFailsByItsNameAndTheEventRecordedAfterItReportsIt(Accelerator accelerator) {
    try (Stream stream = accelerator.newStream();
        Event after = accelerator.newEvent()) {
      AtomicInteger badRuns = new AtomicInteger();
      Faults.on(accelerator).failNamed(stream, "bad", new IllegalArgumentException("by name"));
      stream.launch("good", () -> {});
      stream.launch("bad", badRuns::incrementAndGet);
      after.record(stream);
      DeviceExecutionException failure =
          assertThrows(DeviceExecutionException.class, after::synchronize);
      assertTrue(failure.getMessage().contains("kernel 'bad' failed"), failure.getMessage());
      assertThrows(DeviceExecutionException.class, stream::synchronize);
      stream.launch("bad", badRuns::incrementAndGet); // the fault was used up
      stream.synchronize();
      assertEquals(1, badRuns.get());
    }
  }

  @Test
  void aCopyFailsByItsName(Accelerator accelerator) {
    try (Stream stream = accelerator.newStream();
        DeviceBuffer buffer = accelerator.allocate(stream.device(), 64)) {
      Faults.on(accelerator).failNamed(stream, "copyToDevice", new IllegalStateException("bus"));
      stream.copyToDevice(ByteBuffer.allocate(64), buffer);
      DeviceExecutionException failure =
          assertThrows(DeviceExecutionException.class, stream::synchronize);
      assertTrue(failure.getMessage().contains("'copyToDevice'"), failure.getMessage());
      stream.copyToDevice(ByteBuffer.allocate(64), buffer);
      stream.synchronize();
    }
  }

  @Test
  void theNextAllocationRunsOutOfMemoryAndTheOneAfterSucceeds(Accelerator accelerator) {
    Device device = accelerator.currentDevice();
    Faults.on(accelerator).failNextAllocation(device);
    MemoryStats before = accelerator.memoryStats(device);
    DeviceOutOfMemoryException oom =
        assertThrows(DeviceOutOfMemoryException.class, () -> accelerator.allocate(device, 1024));
    assertEquals(1024, oom.requested());
    assertEquals(before.capacity(), oom.capacity());
    assertTrue(oom.getMessage().startsWith(device + " out of memory"), oom.getMessage());
    try (DeviceBuffer buffer = accelerator.allocate(device, 1024)) {
      assertEquals(1024, buffer.size());
    }
  }

  @Test
  void latencyDelaysEachItemOnTheManualClockUntilTheTestAdvancesIt(Accelerator accelerator)
      throws Exception {
    ManualClock clock = ManualClock.on(accelerator);
    try (Stream stream = accelerator.newStream()) {
      Faults.on(accelerator).delay(stream, Duration.ofMillis(3));
      var result = stream.submit("late", () -> 42).toCompletableFuture();
      clock.awaitTimeouts(1, WAIT);
      assertFalse(result.isDone());
      clock.advance(Duration.ofMillis(2));
      assertFalse(result.isDone(), "2 ms of the 3 passed");
      clock.advance(Duration.ofMillis(1));
      assertEquals(42, result.get(WAIT.toSeconds(), TimeUnit.SECONDS));
    }
  }

  @Test
  void realTimeLatencyStillRunsEveryItemInOrder(Accelerator accelerator) {
    try (Stream stream = accelerator.newStream()) {
      Faults.on(accelerator).delay(stream, Duration.ofMillis(1));
      List<Integer> ran = Collections.synchronizedList(new ArrayList<>());
      for (int i = 0; i < 5; i++) {
        int n = i;
        stream.launch("k" + n, () -> ran.add(n));
      }
      stream.synchronize();
      assertEquals(List.of(0, 1, 2, 3, 4), ran);
    }
  }

  @Test
  void badArgumentsAreRefusedNamingThem(Accelerator accelerator) {
    Faults faults = Faults.on(accelerator);
    Stream stream = accelerator.currentStream();
    assertEquals(
        "n counts from 1 (the next item), got 0",
        assertThrows(
                IllegalArgumentException.class,
                () -> faults.failNth(stream, 0, new IllegalStateException()))
            .getMessage());
    assertEquals(
        "a latency must be zero or more, got PT-0.001S",
        assertThrows(
                IllegalArgumentException.class, () -> faults.delay(stream, Duration.ofMillis(-1)))
            .getMessage());
  }

  @Test
  void aSubmitFailsThroughItsStage(Accelerator accelerator) {
    try (Stream stream = accelerator.newStream()) {
      Faults.on(accelerator).failNext(stream, new IllegalStateException("stage"));
      ExecutionException failure =
          assertThrows(
              ExecutionException.class,
              () -> stream.submit("s", () -> 1).toCompletableFuture().get(10, TimeUnit.SECONDS));
      assertTrue(failure.getCause() instanceof DeviceExecutionException);
      assertTrue(failure.getCause().getCause() instanceof IllegalStateException);
      stream.synchronize(); // reported once, by the stage
    }
  }
}
