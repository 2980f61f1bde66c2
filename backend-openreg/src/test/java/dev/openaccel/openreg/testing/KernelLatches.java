package dev.openaccel.openreg.testing;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.openaccel.openreg.OpenRegProvider;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.Stream;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

/**
 * Bounded waits shared by the stream, device and guard tests: every wait gives up after {@link
 * #SECONDS} seconds and fails the test instead of hanging.
 */
public final class KernelLatches {
  public static final long SECONDS = 10;
  public static final DeviceType OPENREG = OpenRegProvider.TYPE;
  public static final Device D0 = Device.of(OPENREG, 0);
  public static final Device D1 = Device.of(OPENREG, 1);

  private KernelLatches() {}

  /** Awaits {@code latch} inside a kernel or a helper thread; throws if it times out. */
  public static void await(CountDownLatch latch) {
    try {
      if (!latch.await(SECONDS, TimeUnit.SECONDS)) {
        throw new AssertionError("latch not released within " + SECONDS + " s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while awaiting a latch", e);
    }
  }

  /** Awaits {@code latch} on the test thread and asserts it was released in time. */
  public static void assertReleased(CountDownLatch latch) throws InterruptedException {
    assertTrue(latch.await(SECONDS, TimeUnit.SECONDS), "latch not released in time");
  }

  /** The value of {@code stage}, waiting at most {@link #SECONDS} seconds. */
  public static <T> T get(CompletionStage<T> stage)
      throws InterruptedException, ExecutionException, TimeoutException {
    return stage.toCompletableFuture().get(SECONDS, TimeUnit.SECONDS);
  }

  /**
   * Waits until all work enqueued on {@code stream} so far has run, through a marker kernel's
   * result rather than {@link Stream#synchronize()}, so that tests of other things do not depend on
   * the stream's progress counters.
   */
  public static void drain(Stream stream) throws Exception {
    get(stream.submit("drain", () -> Boolean.TRUE));
  }

  /** Polls {@code condition} until true, failing after {@link #SECONDS} seconds. */
  public static void awaitCondition(String what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(SECONDS);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        fail("timed out waiting until " + what);
      }
      Thread.onSpinWait();
    }
  }

  /**
   * Releases {@code latch} from a helper thread once {@code blocked} is parked (waiting), so that a
   * blocking call made next by {@code blocked} really has to wait for the released work.
   */
  public static Thread releaseWhenParked(Thread blocked, CountDownLatch latch) {
    Thread releaser =
        new Thread(
            () -> {
              long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(SECONDS);
              try {
                while (blocked.getState() != Thread.State.WAITING
                    && blocked.getState() != Thread.State.TIMED_WAITING
                    && System.nanoTime() < deadline) {
                  Thread.onSpinWait();
                }
              } finally {
                latch.countDown(); // always, so that kernels never outlive a failed test
              }
            },
            "releaser");
    releaser.setDaemon(true);
    releaser.start();
    return releaser;
  }

  /** Makes device 0 current with default streams on both devices. */
  public static void resetContext(Accelerator acc) {
    acc.setStream(acc.defaultStream(D1));
    acc.setStream(acc.defaultStream(D0));
    acc.setDeviceIndex(0);
  }
}
