package dev.openaccel.conformance;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceGuard;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.Capability;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Conformance of a backend's devices: the count, index validation, the caller's current device and
 * the device guard, and device-wide synchronization.
 */
public abstract class DeviceTck extends BackendTck {
  private static final String OUT_OF_RANGE = "device index is out of range";

  private Device lastDevice() {
    return device(deviceCount() - 1);
  }

  @Test
  void deviceCountIsAtLeastOneAndTheSameThroughTheSpi() {
    assertTrue(deviceCount() >= 1, about("a conforming backend has at least one device"));
    assertEquals(deviceCount(), backend().deviceCount());
  }

  @Test
  void capabilitiesAreTheSameThroughTheRouter() {
    assertEquals(backend().impl().capabilities(), backend().capabilities());
    assertEquals(deviceType(), backend().type());
  }

  @Test
  void aNewThreadStartsOnDeviceZero() throws Exception {
    accelerator().setDevice(lastDevice());
    assertEquals(device(0), onNewThread(() -> accelerator().currentDevice(deviceType())));
    assertEquals(lastDevice(), accelerator().currentDevice(deviceType()));
  }

  @Test
  void setDeviceMakesEachValidIndexCurrent() {
    for (int i = 0; i < deviceCount(); i++) {
      accelerator().setDevice(device(i));
      assertEquals(device(i), accelerator().currentDevice(deviceType()));
    }
  }

  @Test
  void setDeviceOutOfRangeIsRejectedAndKeepsTheCurrentDevice() {
    accelerator().setDevice(lastDevice());
    assertThrowsWith(
        IllegalArgumentException.class,
        OUT_OF_RANGE,
        () -> accelerator().setDevice(device(deviceCount())));
    assertThrowsWith(
        IllegalArgumentException.class,
        OUT_OF_RANGE,
        () -> backend().exchangeDevice(device(deviceCount() + 7)));
    assertEquals(lastDevice(), accelerator().currentDevice(deviceType()));
  }

  @Test
  void setDeviceWithoutIndexIsANoOp() {
    accelerator().setDevice(lastDevice());
    accelerator().setDevice(Device.of(deviceType(), -1));
    assertEquals(lastDevice(), accelerator().currentDevice(deviceType()));
  }

  @Test
  void uncheckedSetDeviceIgnoresAnInvalidDevice() {
    accelerator().setDevice(lastDevice());
    assertDoesNotThrow(() -> backend().uncheckedSetDevice(device(deviceCount())));
    assertEquals(lastDevice(), accelerator().currentDevice(deviceType()));
  }

  @Test
  void exchangeDeviceReturnsThePreviousDevice() {
    accelerator().setDevice(device(0));
    assertEquals(device(0), backend().exchangeDevice(lastDevice()));
    assertEquals(lastDevice(), backend().getDevice());
  }

  @Test
  void streamCallsOnAnOutOfRangeDeviceAreRejected() {
    Device missing = device(deviceCount());
    assertThrowsWith(
        IllegalArgumentException.class, OUT_OF_RANGE, () -> accelerator().defaultStream(missing));
    assertThrowsWith(
        IllegalArgumentException.class, OUT_OF_RANGE, () -> accelerator().newStream(missing));
    assertThrowsWith(
        IllegalArgumentException.class, OUT_OF_RANGE, () -> accelerator().currentStream(missing));
    assertThrowsWith(
        IllegalArgumentException.class, OUT_OF_RANGE, () -> accelerator().synchronize(missing));
    assertThrowsWith(
        IllegalArgumentException.class, OUT_OF_RANGE, () -> accelerator().deviceGuard(missing));
  }

  @Test
  void aDeviceWithoutIndexMeansTheCurrentDevice() {
    accelerator().setDevice(lastDevice());
    Device current = Device.of(deviceType(), -1);
    assertEquals(lastDevice(), accelerator().defaultStream(current).device());
    assertEquals(lastDevice(), accelerator().newStream(current).device());
    assertEquals(lastDevice(), accelerator().currentStream(current).device());
  }

  @Test
  void deviceGuardSwitchesTheDeviceAndRestoresItOnClose() {
    accelerator().setDevice(device(0));
    try (DeviceGuard guard = accelerator().deviceGuard(lastDevice())) {
      assertEquals(device(0), guard.originalDevice());
      assertEquals(lastDevice(), guard.currentDevice());
      assertEquals(lastDevice(), accelerator().currentDevice(deviceType()));
    }
    assertEquals(device(0), accelerator().currentDevice(deviceType()));
  }

  @Test
  void deviceGuardRestoresWhenTheBodyThrows() {
    accelerator().setDevice(device(0));
    assertThrows(
        ArithmeticException.class,
        () -> {
          try (DeviceGuard guard = accelerator().deviceGuard(lastDevice())) {
            assertEquals(lastDevice(), guard.currentDevice());
            throw new ArithmeticException("body failed");
          }
        });
    assertEquals(device(0), accelerator().currentDevice(deviceType()));
  }

  @Test
  void deviceGuardsNestAndRestoreInOrder() {
    accelerator().setDevice(device(0));
    try (DeviceGuard outer = accelerator().deviceGuard(lastDevice())) {
      try (DeviceGuard inner = accelerator().deviceGuard(device(0))) {
        assertEquals(device(0), accelerator().currentDevice(deviceType()));
        inner.setDevice(lastDevice());
        assertEquals(lastDevice(), accelerator().currentDevice(deviceType()));
      }
      assertEquals(lastDevice(), outer.currentDevice());
    }
    assertEquals(device(0), accelerator().currentDevice(deviceType()));
  }

  @Test
  void deviceGuardClosedByAnotherThreadIsRejected() throws Exception {
    DeviceGuard guard = accelerator().deviceGuard(lastDevice());
    IllegalStateException e =
        onNewThread(() -> assertThrows(IllegalStateException.class, guard::close));
    assertTrue(e.getMessage().contains("DeviceGuard"), e.getMessage());
    guard.close();
    assertEquals(device(0), accelerator().currentDevice(deviceType()));
  }

  @Test
  void synchronizeDeviceWaitsForAllItsStreams() throws Exception {
    CountDownLatch gate = gate();
    Stream first = newStream(0);
    Stream second = newStream(0);
    AtomicInteger done = new AtomicInteger();
    hold(first, gate);
    first.launch("count", done::incrementAndGet);
    second.launch("count", done::incrementAndGet);
    CompletableFuture<Void> synced =
        accelerator().synchronizeAsync(device(0)).toCompletableFuture();
    assertFalse(synced.isDone(), about("device synchronize finished before a held stream"));
    gate.countDown();
    await(synced);
    assertEquals(2, done.get());

    first.launch("count", done::incrementAndGet);
    accelerator().defaultStream(device(0)).launch("count", done::incrementAndGet);
    accelerator().synchronize(device(0));
    assertEquals(4, done.get());
    assertTrue(first.query() && second.query());
  }

  @Test
  void synchronizeDeviceDoesNotWaitForWorkEnqueuedAfterTheCall() throws Exception {
    CountDownLatch before = gate();
    CountDownLatch after = gate();
    Stream first = newStream(0);
    Stream second = newStream(0);
    hold(first, before);
    CompletableFuture<Void> synced =
        accelerator().synchronizeAsync(device(0)).toCompletableFuture();
    hold(second, after);
    before.countDown();
    // the second stream's held kernel came after the call, so it must not delay the result
    await(synced);
    assertFalse(second.query());
    after.countDown();
    second.synchronize();
  }

  @Test
  void synchronizingAnIdleDeviceReturnsAtOnce() throws Exception {
    for (int i = 0; i < deviceCount(); i++) {
      accelerator().synchronize(device(i));
      await(accelerator().synchronizeAsync(device(i)));
    }
    assertTrue(accelerator().defaultStream(device(0)).query());
  }

  /**
   * Device memory is not part of the runtime yet, so the suite cannot prove a declaration of it;
   * until it is, a backend that does not declare it must not claim it anywhere.
   */
  @Test
  void deviceMemoryIsNotClaimedWhenUndeclared() {
    Assumptions.assumeFalse(
        declares(Capability.DEVICE_MEMORY),
        "DEVICE_MEMORY is declared; the suite has no device memory checks yet");
    assertFalse(backend().capabilities().contains(Capability.DEVICE_MEMORY));
    assertFalse(backend().impl().capabilities().contains(Capability.DEVICE_MEMORY));
  }
}
