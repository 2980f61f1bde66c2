package dev.openaccel.openreg.device;

import static dev.openaccel.openreg.testing.KernelLatches.D0;
import static dev.openaccel.openreg.testing.KernelLatches.D1;
import static dev.openaccel.openreg.testing.KernelLatches.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.openaccel.openreg.testing.KernelLatches;
import dev.openaccel.openreg.testing.SharedAcceleratorTest;
import dev.openaccel.runtime.DeviceContext;
import dev.openaccel.runtime.Stream;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * The caller's device context: thread-confined like CUDA's current device (a new thread starts on
 * device 0 with default streams; one thread's changes never reach another), and carried explicitly
 * with {@code captureContext} / {@code runWith}.
 */
class DeviceContextTest extends SharedAcceleratorTest {
  /** Calls {@code body} on a new thread and returns its result. */
  private static <T> T onNewThread(Callable<T> body) throws Exception {
    CompletableFuture<T> result = new CompletableFuture<>();
    Thread thread =
        new Thread(
            () -> {
              try {
                result.complete(body.call());
              } catch (Throwable t) {
                result.completeExceptionally(t);
              }
            },
            "context-probe");
    thread.start();
    return get(result);
  }

  @Test
  void newThreadStartsOnDeviceZeroWithDefaultStreams() throws Exception {
    acc.setStream(acc.newStream(D0));
    acc.setStream(acc.newStream(D1));
    List<Stream> seen =
        onNewThread(
            () -> {
              assertEquals(0, acc.currentDeviceIndex());
              return List.of(acc.currentStream(D0), acc.currentStream(D1));
            });
    assertEquals(List.of(acc.defaultStream(D0), acc.defaultStream(D1)), seen);
  }

  @Test
  void settingTheDeviceOnOneThreadDoesNotAffectAnother() throws Exception {
    CountDownLatch otherSet = new CountDownLatch(1);
    CountDownLatch mainChecked = new CountDownLatch(1);
    CompletableFuture<Integer> otherSees = new CompletableFuture<>();
    Thread other =
        new Thread(
            () -> {
              try {
                acc.setDeviceIndex(1);
                otherSet.countDown();
                KernelLatches.await(mainChecked);
                otherSees.complete(acc.currentDeviceIndex());
              } catch (Throwable t) {
                otherSees.completeExceptionally(t);
              }
            },
            "sets-device-one");
    other.start();
    KernelLatches.assertReleased(otherSet);
    assertEquals(0, acc.currentDeviceIndex());
    acc.setDeviceIndex(1);
    acc.setDeviceIndex(0); // a shared context would now show device 0 to the other thread
    mainChecked.countDown();
    assertEquals(1, get(otherSees));
    assertEquals(0, acc.currentDeviceIndex());
  }

  @Test
  void settingTheStreamOnOneThreadDoesNotAffectAnother() throws Exception {
    Stream mine = acc.newStream(D1);
    acc.setStream(mine);
    Stream theirs = onNewThread(() -> acc.currentStream(D1));
    assertEquals(acc.defaultStream(D1), theirs);
    onNewThread(
        () -> {
          acc.setStream(acc.newStream(D1));
          return null;
        });
    assertEquals(mine, acc.currentStream());
    assertEquals(mine, acc.currentStream(D1));
  }

  @Test
  void capturedContextCarriesDeviceAndStreamsToAnotherThread() throws Exception {
    Stream onZero = acc.newStream(D0);
    Stream onOne = acc.newStream(D1);
    acc.setStream(onZero);
    acc.setStream(onOne);
    DeviceContext context = acc.captureContext();
    List<Object> seen =
        onNewThread(
            () -> {
              Object[] inside = new Object[3];
              acc.runWith(
                  context,
                  () -> {
                    inside[0] = acc.currentDevice();
                    inside[1] = acc.currentStream();
                    inside[2] = acc.currentStream(D0);
                  });
              return List.of(
                  inside[0], inside[1], inside[2], acc.currentDevice(), acc.currentStream(D1));
            });
    assertEquals(List.of(D1, onOne, onZero, D0, acc.defaultStream(D1)), seen);
  }

  @Test
  void runWithRestoresTheCallersContextAlsoWhenTheBodyThrows() {
    Stream stream = acc.newStream(D1);
    acc.setStream(stream);
    DeviceContext mine = acc.captureContext();
    assertThrows(
        IllegalStateException.class,
        () ->
            acc.runWith(
                DeviceContext.empty(),
                () -> {
                  assertEquals(D0, acc.currentDevice());
                  assertEquals(acc.defaultStream(D1), acc.currentStream(D1));
                  throw new IllegalStateException("body failed");
                }));
    assertEquals(D1, acc.currentDevice());
    assertEquals(stream, acc.currentStream());
    assertEquals(mine, acc.captureContext());
  }

  @Test
  void changesInsideRunWithDoNotLeakOut() {
    DeviceContext before = acc.captureContext();
    acc.runWith(
        before,
        () -> {
          acc.setDeviceIndex(1);
          acc.setStream(acc.newStream(D1));
        });
    assertEquals(D0, acc.currentDevice());
    assertEquals(acc.defaultStream(D1), acc.currentStream(D1));
  }

  @Test
  void capturedContextIsASnapshot() {
    DeviceContext snapshot = acc.captureContext();
    acc.setDeviceIndex(1);
    acc.setStream(acc.newStream(D1));
    acc.runWith(
        snapshot,
        () -> {
          assertEquals(D0, acc.currentDevice());
          assertEquals(acc.defaultStream(D1), acc.currentStream(D1));
        });
    assertEquals(0, snapshot.deviceIndex(KernelLatches.OPENREG));
  }
}
