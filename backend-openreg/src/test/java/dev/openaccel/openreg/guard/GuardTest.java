package dev.openaccel.openreg.guard;

import static dev.openaccel.openreg.testing.KernelLatches.D0;
import static dev.openaccel.openreg.testing.KernelLatches.D1;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.openreg.testing.ForeignStreams;
import dev.openaccel.openreg.testing.KernelLatches;
import dev.openaccel.openreg.testing.SharedAcceleratorTest;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceGuard;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.StreamGuard;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * {@link DeviceGuard} and {@link StreamGuard}, as c10's {@code DeviceGuard} / {@code StreamGuard}:
 * they save their own state, restore it on close also when the body throws, nest, and may only be
 * closed by the thread that opened them.
 */
@SuppressWarnings("try") // guards are opened for their scope and often not referenced inside it
class GuardTest extends SharedAcceleratorTest {
  /** Runs {@code action} on a new thread and returns what it threw, or null. */
  private static Throwable onAnotherThread(Runnable action) throws Exception {
    CompletableFuture<Throwable> thrown = new CompletableFuture<>();
    Thread thread =
        new Thread(
            () -> {
              try {
                action.run();
                thrown.complete(null);
              } catch (Throwable t) {
                thrown.complete(t);
              }
            },
            "other-thread");
    thread.start();
    return KernelLatches.get(thrown);
  }

  @Test
  void deviceGuardSwitchesAndRestoresOnClose() {
    try (DeviceGuard guard = acc.deviceGuard(D1)) {
      assertEquals(D0, guard.originalDevice());
      assertEquals(D1, guard.currentDevice());
      assertEquals(D1, acc.currentDevice());
    }
    assertEquals(D0, acc.currentDevice());
  }

  @Test
  void deviceGuardRestoresWhenTheBodyThrows() {
    acc.setDeviceIndex(1);
    assertThrows(
        ArithmeticException.class,
        () -> {
          try (DeviceGuard guard = acc.deviceGuard(0)) {
            throw new ArithmeticException("body failed");
          }
        });
    assertEquals(D1, acc.currentDevice());
  }

  @Test
  void deviceGuardSetDeviceInsideTheScopeIsUndoneOnClose() {
    try (DeviceGuard guard = acc.deviceGuard(1)) {
      guard.setDevice(D0);
      assertEquals(D0, guard.currentDevice());
      acc.setDeviceIndex(1);
      assertEquals(D1, guard.currentDevice());
    }
    assertEquals(D0, acc.currentDevice());
  }

  @Test
  void deviceGuardCloseIsIdempotent() {
    DeviceGuard guard = acc.deviceGuard(1);
    guard.close();
    acc.setDeviceIndex(1);
    guard.close();
    assertEquals(D1, acc.currentDevice());
  }

  @Test
  void deviceGuardClosedOnAnotherThreadIsRejected() throws Exception {
    try (DeviceGuard guard = acc.deviceGuard(1)) {
      Throwable thrown = onAnotherThread(guard::close);
      assertInstanceOf(IllegalStateException.class, thrown);
      assertEquals(D1, acc.currentDevice());
    }
    assertEquals(D0, acc.currentDevice());
  }

  @Test
  void deviceGuardSetDeviceOnAnotherThreadIsRejected() throws Exception {
    try (DeviceGuard guard = acc.deviceGuard(1)) {
      assertInstanceOf(IllegalStateException.class, onAnotherThread(() -> guard.setDevice(D0)));
      assertEquals(D1, acc.currentDevice());
    }
  }

  @Test
  void streamGuardSwitchesDeviceAndStreamAndRestoresBoth() {
    Stream previousOnD1 = acc.currentStream(D1);
    Stream stream = acc.newStream(D1);
    try (StreamGuard guard = acc.streamGuard(stream)) {
      assertEquals(stream, guard.currentStream());
      assertEquals(previousOnD1, guard.originalStream());
      assertEquals(D0, guard.originalDevice());
      assertEquals(D1, guard.currentDevice());
      assertEquals(D1, acc.currentDevice());
      assertEquals(stream, acc.currentStream());
      assertEquals(acc.defaultStream(D0), acc.currentStream(D0));
    }
    assertEquals(D0, acc.currentDevice());
    assertEquals(previousOnD1, acc.currentStream(D1));
    assertEquals(acc.defaultStream(D0), acc.currentStream());
  }

  @Test
  void streamGuardRestoresWhenTheBodyThrows() {
    Stream stream = acc.newStream(D1);
    assertThrows(
        IllegalStateException.class,
        () -> {
          try (StreamGuard guard = acc.streamGuard(stream)) {
            throw new IllegalStateException("body failed");
          }
        });
    assertEquals(D0, acc.currentDevice());
    assertEquals(acc.defaultStream(D1), acc.currentStream(D1));
  }

  @Test
  void streamGuardsNestAcrossDevices() {
    Stream onZero = acc.newStream(D0);
    Stream onOne = acc.newStream(D1);
    try (StreamGuard outer = acc.streamGuard(onOne)) {
      try (StreamGuard inner = acc.streamGuard(onZero)) {
        assertEquals(D0, acc.currentDevice());
        assertEquals(onZero, acc.currentStream());
        assertEquals(onOne, acc.currentStream(D1));
      }
      assertEquals(D1, acc.currentDevice());
      assertEquals(onOne, acc.currentStream());
      assertEquals(acc.defaultStream(D0), acc.currentStream(D0));
    }
    assertEquals(D0, acc.currentDevice());
    assertEquals(acc.defaultStream(D1), acc.currentStream(D1));
  }

  @Test
  void streamGuardHoldsItsOwnStateWhenTheStreamChangesInside() {
    Stream stream = acc.newStream(D0);
    Stream other = acc.newStream(D0);
    try (StreamGuard guard = acc.streamGuard(stream)) {
      acc.setStream(other);
      assertEquals(other, acc.currentStream());
      assertEquals(stream, guard.currentStream());
    }
    assertEquals(acc.defaultStream(D0), acc.currentStream());
  }

  @Test
  void streamGuardClosedOnAnotherThreadIsRejected() throws Exception {
    Stream stream = acc.newStream(D1);
    try (StreamGuard guard = acc.streamGuard(stream)) {
      Throwable thrown = onAnotherThread(guard::close);
      assertInstanceOf(IllegalStateException.class, thrown);
      assertEquals(stream, acc.currentStream());
    }
    assertEquals(acc.defaultStream(D1), acc.currentStream(D1));
  }

  @Test
  void setStreamMakesTheStreamsDeviceCurrent() {
    Stream stream = acc.newStream(D1);
    acc.setStream(stream);
    assertEquals(D1, acc.currentDevice());
    assertEquals(stream, acc.currentStream());
    assertEquals(acc.defaultStream(D0), acc.currentStream(D0));
  }

  @Test
  void streamGuardOfAStreamWithoutBackendIsRejectedAndChangesNothing() {
    Stream foreign = ForeignStreams.of(Device.parse("nosuch:0"), 3);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> acc.streamGuard(foreign));
    assertTrue(e.getMessage().contains("no backend for device type"), e.getMessage());
    assertEquals(D0, acc.currentDevice());
    assertEquals(acc.defaultStream(D0), acc.currentStream());
  }
}
