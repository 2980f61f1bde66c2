package dev.openaccel.openreg.ported;

import static dev.openaccel.openreg.testing.KernelLatches.D0;
import static dev.openaccel.openreg.testing.KernelLatches.D1;
import static dev.openaccel.openreg.testing.KernelLatches.drain;
import static dev.openaccel.openreg.testing.KernelLatches.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.openreg.testing.KernelLatches;
import dev.openaccel.openreg.testing.SharedAcceleratorTest;
import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.DeviceGuard;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.Stream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Port of torch_openreg/tests/test_device.py ({@code TestDevice}). Tensor creation on "the current
 * device" becomes stream and event creation on the current device; fork, spawn and dtype
 * capabilities have no counterpart here.
 */
@SuppressWarnings("try") // guards are opened for their scope and often not referenced inside it
class TestDevicePyTest extends SharedAcceleratorTest {
  // test_device_count, test_device_count_consistency
  @Test
  void everyOfTheTwoDevicesCanBeMadeCurrent() {
    assertEquals(2, acc.deviceCount());
    for (int i = 0; i < acc.deviceCount(); i++) {
      acc.setDeviceIndex(i);
      assertEquals(i, acc.currentDeviceIndex());
    }
  }

  // test_device_switch
  @Test
  void setDeviceIndexSwitchesBackAndForth() {
    acc.setDeviceIndex(1);
    assertEquals(1, acc.currentDeviceIndex());
    assertEquals(D1, acc.currentDevice());
    acc.setDeviceIndex(0);
    assertEquals(0, acc.currentDeviceIndex());
    assertEquals(D0, acc.currentDevice());
  }

  // test_device_context, test_device_guard
  @Test
  void deviceGuardWithoutIndexKeepsTheDeviceAndWithIndexRestoresIt() {
    int device = acc.currentDeviceIndex();
    try (DeviceGuard guard = acc.deviceGuard(-1)) {
      assertEquals(device, acc.currentDeviceIndex());
    }
    assertEquals(device, acc.currentDeviceIndex());

    try (DeviceGuard guard = acc.deviceGuard(1)) {
      assertEquals(1, acc.currentDeviceIndex());
    }
    assertEquals(device, acc.currentDeviceIndex());
  }

  // test_invalid_device_index
  @Test
  void setDeviceIndexOutOfRangeIsRejectedAndKeepsTheDevice() {
    acc.setDeviceIndex(1);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> acc.setDeviceIndex(2));
    assertTrue(e.getMessage().contains("device index is out of range"), e.getMessage());
    assertEquals(1, acc.currentDeviceIndex());
  }

  // test_device_switch_persistence
  @Test
  void deviceSwitchPersistsAcrossStreamAndEventCreation() {
    acc.setDeviceIndex(1);
    assertEquals(D1, acc.newStream().device());
    assertEquals(D1, acc.currentStream().device());
    Event event = acc.newEvent();
    event.record();
    assertEquals(D1, event.device().orElseThrow());
    assertEquals(1, acc.currentDeviceIndex());
  }

  // test_current_device_after_operations
  @Test
  void deviceWorkDoesNotChangeTheCurrentDevice() throws Exception {
    int original = acc.currentDeviceIndex();
    Stream stream = acc.currentStream();
    assertEquals(3, get(stream.submit("add", () -> 1 + 2)));
    assertEquals(original, acc.currentDeviceIndex());

    acc.setDeviceIndex(1);
    Stream onOne = acc.currentStream();
    assertEquals(D1, onOne.device());
    assertEquals(25, get(onOne.submit("square", () -> 5 * 5)));
    assertEquals(1, acc.currentDeviceIndex());
  }

  // test_device_context_restoration
  @Test
  void deviceGuardsRestoreAfterExceptionsAlsoWhenNested() {
    int original = acc.currentDeviceIndex();
    assertThrows(
        IllegalStateException.class,
        () -> {
          try (DeviceGuard guard = acc.deviceGuard(1)) {
            assertEquals(D1, acc.newStream().device());
            throw new IllegalStateException("test exception");
          }
        });
    assertEquals(original, acc.currentDeviceIndex());

    assertThrows(
        IllegalStateException.class,
        () -> {
          try (DeviceGuard outer = acc.deviceGuard(1)) {
            assertEquals(1, acc.currentDeviceIndex());
            try (DeviceGuard inner = acc.deviceGuard(0)) {
              assertEquals(0, acc.currentDeviceIndex());
              throw new IllegalStateException("nested exception");
            }
          }
        });
    assertEquals(original, acc.currentDeviceIndex());
  }

  // test_concurrent_device_operations
  @Test
  void concurrentThreadsEachKeepTheirOwnDevice() throws Exception {
    int threads = 4;
    CyclicBarrier barrier = new CyclicBarrier(threads);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<List<String>>> results = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int device = t % 2;
        results.add(pool.submit(() -> deviceWorker(device, barrier)));
      }
      for (Future<List<String>> result : results) {
        List<String> errors = result.get(KernelLatches.SECONDS, TimeUnit.SECONDS);
        assertTrue(errors.isEmpty(), errors.toString());
      }
    } finally {
      pool.shutdownNow();
    }
    assertEquals(0, acc.currentDeviceIndex());
  }

  private List<String> deviceWorker(int device, CyclicBarrier barrier) throws Exception {
    List<String> errors = new ArrayList<>();
    barrier.await(KernelLatches.SECONDS, TimeUnit.SECONDS);
    for (int i = 0; i < 50; i++) {
      acc.setDeviceIndex(device);
      if (acc.currentDeviceIndex() != device) {
        errors.add("expected device " + device + ", got " + acc.currentDeviceIndex());
      }
      Stream stream = acc.newStream();
      if (stream.deviceIndex() != device) {
        errors.add("stream on device " + stream.deviceIndex() + ", expected " + device);
      }
      int value = get(stream.submit("work", () -> device));
      if (value != device || acc.currentDeviceIndex() != device) {
        errors.add("device changed during work on device " + device);
      }
    }
    return errors;
  }

  // test_device_state_after_errors
  @Test
  void aFailedKernelLeavesTheDeviceUsable() throws Exception {
    acc.setDeviceIndex(1);
    Stream stream = acc.newStream();
    stream.launch(
        "shape-mismatch",
        () -> {
          throw new IllegalArgumentException("shapes 5x5 and 3x3 do not match");
        });
    assertThrows(DeviceExecutionException.class, stream::synchronize);
    assertEquals(1, acc.currentDeviceIndex());
    Stream next = acc.newStream();
    assertEquals(D1, next.device());
    assertEquals("ok", get(next.submit("after-error", () -> "ok")));
    drain(stream);
  }
}
