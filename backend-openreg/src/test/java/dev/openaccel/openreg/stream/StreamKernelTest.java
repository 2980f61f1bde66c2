package dev.openaccel.openreg.stream;

import static dev.openaccel.openreg.testing.KernelLatches.D0;
import static dev.openaccel.openreg.testing.KernelLatches.D1;
import static dev.openaccel.openreg.testing.KernelLatches.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.openreg.testing.KernelLatches;
import dev.openaccel.openreg.testing.SharedAcceleratorTest;
import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.Stream;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Kernels as the API contract describes them: {@code submit} carries the kernel's value or its
 * failure, a failed kernel is reported as a {@link DeviceExecutionException} whose cause is the
 * kernel's own exception, and kernels run on the device's own threads, never on the caller's thread
 * nor on Pekko's default dispatcher.
 */
class StreamKernelTest extends SharedAcceleratorTest {
  @Test
  void submitCompletesWithTheKernelsValue() throws Exception {
    Stream stream = acc.newStream(D0);
    assertEquals(42, get(stream.submit("answer", () -> 42)));
    assertEquals("text", get(stream.submit("text", () -> "text")));
  }

  @Test
  void submitOfAFailingKernelFailsWithTheKernelsExceptionAsCause() {
    Stream stream = acc.newStream(D0);
    IllegalStateException boom = new IllegalStateException("kernel says no");
    CompletionStage<Integer> result =
        stream.submit(
            "refuse",
            () -> {
              throw boom;
            });
    ExecutionException e = assertThrows(ExecutionException.class, () -> get(result));
    DeviceExecutionException failure =
        assertInstanceOf(DeviceExecutionException.class, e.getCause());
    assertSame(boom, failure.getCause());
    assertTrue(failure.getMessage().contains("refuse"), failure.getMessage());
  }

  @Test
  void failedKernelIsReportedAtTheNextStreamSynchronizeOnce() {
    Stream stream = acc.newStream(D1);
    RuntimeException boom = new RuntimeException("bad kernel");
    stream.launch(
        "boom",
        () -> {
          throw boom;
        });
    DeviceExecutionException failure =
        assertThrows(DeviceExecutionException.class, stream::synchronize);
    assertSame(boom, failure.getCause());
    assertTrue(failure.getMessage().contains("boom"), failure.getMessage());
    stream.synchronize(); // the report was consumed
  }

  @Test
  void failedKernelAfterEarlierWorkIsStillReportedAtSynchronize() throws Exception {
    Stream stream = acc.newStream(D1);
    stream.launch("fine", () -> {});
    KernelLatches.drain(stream);
    RuntimeException boom = new RuntimeException("late failure");
    CountDownLatch gate = new CountDownLatch(1);
    stream.launch(
        "late-boom",
        () -> {
          KernelLatches.await(gate);
          throw boom;
        });
    KernelLatches.releaseWhenParked(Thread.currentThread(), gate);
    DeviceExecutionException failure =
        assertThrows(DeviceExecutionException.class, stream::synchronize);
    assertSame(boom, failure.getCause());
  }

  @Test
  void streamKeepsRunningLaterWorkAfterAFailedKernel() throws Exception {
    Stream stream = acc.newStream(D0);
    AtomicInteger after = new AtomicInteger();
    stream.launch(
        "boom",
        () -> {
          throw new IllegalArgumentException("bad input");
        });
    stream.launch("after", after::incrementAndGet);
    assertEquals("still running", get(stream.submit("later", () -> "still running")));
    assertEquals(1, after.get());
    assertThrows(DeviceExecutionException.class, stream::synchronize);
  }

  @Test
  void kernelsNeverRunOnTheCallersThread() throws Exception {
    Thread caller = Thread.currentThread();
    for (Stream stream : new Stream[] {acc.defaultStream(D0), acc.newStream(D1)}) {
      Thread kernelThread = get(stream.submit("whoami", Thread::currentThread));
      assertNotSame(caller, kernelThread);
      assertFalse(kernelThread.getName().equals(caller.getName()), kernelThread.getName());
    }
  }

  @Test
  void kernelsNeverRunOnPekkosDefaultDispatcher() throws Exception {
    for (Stream stream :
        new Stream[] {
          acc.defaultStream(D0), acc.newStream(D1), acc.streamFromPool(D0, true), acc.newStream()
        }) {
      String name = get(stream.submit("whoami", () -> Thread.currentThread().getName()));
      assertFalse(name.contains("default-dispatcher"), name);
      assertFalse(name.contains("blocking-io-dispatcher"), name);
    }
  }

  @Test
  void devicesRunKernelsOnSeparateThreads() throws Exception {
    Thread first = get(acc.newStream(D0).submit("whoami", Thread::currentThread));
    Thread second = get(acc.newStream(D1).submit("whoami", Thread::currentThread));
    assertNotSame(first, second);
  }

  @Test
  void blockingStreamSynchronizeInsideAKernelIsRejected() throws Exception {
    Stream stream = acc.newStream(D0);
    Stream other = acc.newStream(D0);
    CompletionStage<Optional<Throwable>> attempt =
        stream.submit(
            "sync-inside",
            () -> {
              try {
                other.synchronize();
                return Optional.empty();
              } catch (IllegalStateException e) {
                return Optional.of(e);
              }
            });
    Throwable rejected = get(attempt).orElseThrow(() -> new AssertionError("not rejected"));
    assertTrue(
        rejected.getMessage().contains("blocking call on an actor thread"), rejected.getMessage());
    CompletionStage<CompletionStage<Void>> asyncInside =
        stream.submit("async-inside", other::synchronizeAsync);
    get(get(asyncInside)); // the non-blocking form is allowed inside a kernel
  }
}
