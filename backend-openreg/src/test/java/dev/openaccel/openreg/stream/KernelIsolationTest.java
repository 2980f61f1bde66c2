package dev.openaccel.openreg.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.openaccel.openreg.OpenRegProvider;
import dev.openaccel.openreg.testing.KernelLatches;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.Stream;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Kernels cannot harm each other: each starts with its stream's device and the stream itself
 * current and a clear interrupt flag, whatever ran before it on the thread, and every {@link
 * Throwable} a kernel throws (errors of the JVM included) becomes that kernel's failure while the
 * stream goes on. One compute unit per device, so every kernel of a device shares one thread.
 */
class KernelIsolationTest {
  private static final Device D0 = Device.of(OpenRegProvider.TYPE, 0);
  private static final Device D1 = Device.of(OpenRegProvider.TYPE, 1);
  private static Accelerator accelerator;

  @BeforeAll
  static void start() {
    accelerator =
        Accelerator.start(
            ConfigFactory.parseString(
                "openaccel.system-name = kernel-isolation\n"
                    + "openaccel.openreg.compute-units = 1"));
  }

  @AfterAll
  static void stop() {
    accelerator.close();
  }

  private static <T> T get(CompletionStage<T> stage) throws Exception {
    return stage.toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  /** A bounded synchronize: the failure it reports, or null. */
  private static Throwable sync(Stream stream) throws Exception {
    try {
      get(stream.synchronizeAsync());
      return null;
    } catch (ExecutionException e) {
      return e.getCause();
    }
  }

  @Test
  void aKernelsDeviceAndStreamChangesEndWithIt() throws Exception {
    Stream a = accelerator.newStream(D0);
    Stream b = accelerator.newStream(D0);
    Stream elsewhere = accelerator.newStream(D1);
    a.launch(
        "switches context",
        () -> {
          accelerator.setDeviceIndex(1);
          accelerator.setStream(elsewhere);
        });
    assertEquals(null, sync(a));
    AtomicReference<Device> device = new AtomicReference<>();
    AtomicReference<Stream> stream = new AtomicReference<>();
    get(
        b.submit(
            "reads context",
            () -> {
              device.set(accelerator.currentDevice());
              stream.set(accelerator.currentStream());
              return null;
            }));
    assertEquals(D0, device.get());
    assertEquals(b, stream.get(), "the kernel's own stream is current inside it");
  }

  @Test
  void whatACompletionCallbackMakesCurrentDoesNotReachALaterCallbackOnItsThread() throws Exception {
    Stream leaked = accelerator.newStream(D1);
    get(
        onD1sThread(
            () -> {
              accelerator.setStream(leaked);
              return null;
            }));
    String seen =
        get(onD1sThread(() -> accelerator.currentDevice() + " " + accelerator.currentStream(D1)));
    assertEquals(D0 + " " + accelerator.defaultStream(D1), seen, "a fresh context, as a thread's");
  }

  /**
   * {@code callback} run as the completion callback of a record on a new stream of D1, which
   * completes in the turn of D1's only device thread (the record waits behind a gated kernel, so
   * the callback is registered before it completes).
   */
  private static <T> CompletableFuture<T> onD1sThread(Supplier<T> callback) {
    Stream stream = accelerator.newStream(D1);
    CountDownLatch gate = new CountDownLatch(1);
    stream.launch("gate", () -> KernelLatches.await(gate));
    CompletableFuture<T> result =
        stream.recordEvent().completion().thenApply(done -> callback.get()).toCompletableFuture();
    gate.countDown();
    return result;
  }

  @Test
  void aKernelsInterruptFlagEndsWithIt() throws Exception {
    Stream a = accelerator.newStream(D0);
    Stream b = accelerator.newStream(D0);
    for (Stream next : List.of(a, b)) { // the next kernel of the same stream, and of another
      a.launch("restores its interrupt", () -> Thread.currentThread().interrupt());
      AtomicBoolean interrupted = new AtomicBoolean(true);
      get(
          next.submit(
              "sleeps",
              () -> {
                interrupted.set(Thread.currentThread().isInterrupted());
                Thread.sleep(1); // throws if the flag leaked
                return null;
              }));
      assertFalse(interrupted.get(), "the interrupt leaked into a kernel of " + next);
    }
  }

  @Test
  void anOutOfMemoryErrorFailsTheKernelAndTheStreamGoesOn() throws Exception {
    Stream stream = accelerator.newStream(D0);
    stream.launch(
        "runs out of memory",
        () -> {
          throw new OutOfMemoryError("Java heap space (simulated)");
        });
    AtomicBoolean later = new AtomicBoolean();
    stream.launch("later", () -> later.set(true));
    Throwable failure = sync(stream);
    assertInstanceOf(DeviceExecutionException.class, failure);
    assertTrue(failure.getMessage().contains("runs out of memory"), failure.getMessage());
    assertInstanceOf(OutOfMemoryError.class, failure.getCause());
    assertTrue(later.get());
    assertEquals(null, sync(stream));
  }

  @Test
  void anArrayAboveTheVmLimitFailsTheSubmitsStage() throws Exception {
    Stream stream = accelerator.newStream(D0);
    CompletionStage<Integer> huge =
        stream.submit("huge array", () -> new long[Integer.MAX_VALUE].length);
    ExecutionException failed = assertThrows(ExecutionException.class, () -> get(huge));
    assertInstanceOf(DeviceExecutionException.class, failed.getCause());
    assertInstanceOf(OutOfMemoryError.class, failed.getCause().getCause());
    assertEquals(null, sync(stream), "reported once, by the stage");
    assertTrue(stream.query());
  }

  @Test
  void everyKindOfErrorBecomesTheKernelsFailure() throws Exception {
    Stream stream = accelerator.newStream(D0);
    Error[] errors = {
      new StackOverflowError("deep"),
      new InternalError("internal"),
      new LinkageError("linkage"),
      new AssertionError("assertion"),
      new ExceptionInInitializerError("initializer")
    };
    for (Error error : errors) {
      stream.launch(
          error.getClass().getSimpleName(),
          () -> {
            throw error;
          });
      Throwable failure = sync(stream);
      assertInstanceOf(DeviceExecutionException.class, failure);
      assertEquals(error, failure.getCause());
    }
  }
}
