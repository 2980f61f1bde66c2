package dev.openaccel.openreg.ported;

import static dev.openaccel.openreg.testing.KernelLatches.D0;
import static dev.openaccel.openreg.testing.KernelLatches.D1;
import static dev.openaccel.openreg.testing.KernelLatches.OPENREG;
import static dev.openaccel.openreg.testing.KernelLatches.assertReleased;
import static dev.openaccel.openreg.testing.KernelLatches.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.openreg.testing.KernelLatches;
import dev.openaccel.openreg.testing.SharedAcceleratorTest;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceGuard;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.PriorityRange;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.StreamGuard;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Port of the device and stream cases of test/test_accelerator.py ({@code TestAccelerator}):
 * current accelerator, set device, the {@code device_index} context manager (here {@link
 * DeviceGuard}), current/set stream, the stream context manager (here {@link StreamGuard}),
 * synchronize and multi-device stream switching; plus the accelerator's device inventory.
 */
@SuppressWarnings("try") // guards are opened for their scope and often not referenced inside it
class TestAcceleratorPyTest extends SharedAcceleratorTest {
  // test_current_accelerator
  @Test
  void currentAcceleratorIsOpenRegAndTheOnlyType() {
    assertEquals(OPENREG, acc.currentAccelerator());
    assertEquals(Set.of(OPENREG), acc.deviceTypes());
    assertEquals(2, acc.deviceCount());
    assertEquals(new PriorityRange(0, 1), acc.priorityRange(OPENREG));
    assertEquals(Device.of(OPENREG, acc.currentDeviceIndex()), acc.currentDevice());
  }

  // test_generic_multi_device_behavior
  @Test
  void setStreamMakesItsDeviceCurrentAndSynchronizeOfAnotherDeviceKeepsIt() {
    int original = acc.currentDeviceIndex();
    int target = (original + 1) % acc.deviceCount();
    acc.setDeviceIndex(target);
    assertEquals(target, acc.currentDeviceIndex());
    acc.setDeviceIndex(original);
    assertEquals(original, acc.currentDeviceIndex());

    Stream stream = acc.newStream(Device.of(OPENREG, target));
    acc.setStream(stream);
    assertEquals(target, acc.currentDeviceIndex());
    acc.synchronize(Device.of(OPENREG, original));
    assertEquals(target, acc.currentDeviceIndex());
  }

  // test_generic_stream_behavior
  @Test
  void currentStreamFollowsSetStreamAndSynchronizeCoversRecordedWork() {
    Stream first = acc.newStream();
    Stream second = acc.newStream();
    acc.setStream(first);
    assertEquals(first, acc.currentStream());
    Event event = acc.newEvent();
    acc.setStream(second);
    assertEquals(second, acc.currentStream());
    AtomicInteger copies = new AtomicInteger();
    second.launch("copy-a", copies::incrementAndGet);
    second.launch("copy-b", copies::incrementAndGet);
    acc.setStream(first);
    assertEquals(first, acc.currentStream());
    event.record(second);
    event.synchronize();
    assertEquals(2, copies.get());
    CountDownLatch gate = new CountDownLatch(1);
    second.launch(
        "add",
        () -> {
          KernelLatches.await(gate);
          copies.incrementAndGet();
        });
    event.record(second);
    KernelLatches.releaseWhenParked(Thread.currentThread(), gate);
    acc.synchronize();
    assertTrue(event.query());
    assertEquals(3, copies.get());
  }

  // test_current_stream_query
  @Test
  void currentStreamIsTheSameHoweverTheDeviceIsNamed() {
    Stream stream = acc.currentStream();
    assertEquals(stream, acc.currentStream(stream.device()));
    assertEquals(stream, acc.currentStream(Device.parse("openreg")));
    assertEquals(stream, acc.currentStream(Device.parse(stream.device().toString())));
  }

  @Test
  void currentStreamOfAnotherDeviceTypeIsRejected() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> acc.currentStream(Device.parse("cpu")));
    assertTrue(e.getMessage().contains("no backend for device type"), e.getMessage());
  }

  // test_device_context_manager
  @Test
  void deviceGuardWithoutIndexAndWithIndexZeroRestore() {
    int previous = acc.currentDeviceIndex();
    try (DeviceGuard guard = acc.deviceGuard(Device.parse("openreg"))) {
      assertEquals(previous, acc.currentDeviceIndex());
    }
    assertEquals(previous, acc.currentDeviceIndex());
    try (DeviceGuard guard = acc.deviceGuard(0)) {
      assertEquals(0, acc.currentDeviceIndex());
    }
    assertEquals(previous, acc.currentDeviceIndex());
  }

  // test_multi_device_context_manager
  @Test
  void deviceGuardToAnotherDeviceRestoresTheSource() {
    acc.setDeviceIndex(0);
    try (DeviceGuard guard = acc.deviceGuard(1)) {
      assertEquals(1, acc.currentDeviceIndex());
      assertEquals(D0, guard.originalDevice());
      assertEquals(D1, guard.currentDevice());
    }
    assertEquals(0, acc.currentDeviceIndex());
  }

  // test_stream_context_manager
  @Test
  void streamGuardMakesANewStreamCurrentAndRestores() {
    Stream previous = acc.currentStream();
    Stream stream = acc.newStream();
    try (StreamGuard guard = acc.streamGuard(stream)) {
      assertEquals(stream, acc.currentStream());
    }
    assertEquals(previous, acc.currentStream());
  }

  // test_stream_context_manager_reentrance
  @Test
  void streamGuardsNestWithTheSameAndWithOtherStreams() {
    Stream previous = acc.currentStream();
    Stream s0 = acc.newStream();
    try (StreamGuard outer = acc.streamGuard(s0);
        StreamGuard inner = acc.streamGuard(s0)) {
      assertEquals(s0, acc.currentStream());
    }
    assertEquals(previous, acc.currentStream());

    Stream s1 = acc.newStream();
    try (StreamGuard a = acc.streamGuard(s0)) {
      assertEquals(s0, acc.currentStream());
      try (StreamGuard b = acc.streamGuard(s1)) {
        assertEquals(s1, acc.currentStream());
        try (StreamGuard c = acc.streamGuard(s0)) {
          assertEquals(s0, acc.currentStream());
        }
        assertEquals(s1, acc.currentStream());
      }
      assertEquals(s0, acc.currentStream());
    }
    assertEquals(previous, acc.currentStream());
  }

  // test_multi_device_stream_context_manager
  @Test
  void streamGuardOnAnotherDeviceSwitchesDeviceAndRestoresBothDevicesStreams() {
    acc.setDeviceIndex(0);
    Stream srcPrevious = acc.currentStream();
    Stream dstPrevious = acc.currentStream(D1);
    Stream dst = acc.newStream(D1);
    try (StreamGuard guard = acc.streamGuard(dst)) {
      assertEquals(1, acc.currentDeviceIndex());
      assertEquals(dst, acc.currentStream());
      assertEquals(srcPrevious, acc.currentStream(D0));
    }
    assertEquals(0, acc.currentDeviceIndex());
    assertEquals(srcPrevious, acc.currentStream());
    assertEquals(dstPrevious, acc.currentStream(D1));
  }

  @Test
  void synchronizeWaitsForAllStreamsOfTheCurrentDevice() {
    acc.setDeviceIndex(1);
    CountDownLatch gate = new CountDownLatch(1);
    AtomicInteger finished = new AtomicInteger();
    Runnable gated =
        () -> {
          KernelLatches.await(gate);
          finished.incrementAndGet();
        };
    acc.newStream().launch("first", gated);
    acc.newStream().launch("second", gated);
    acc.currentStream().launch("default", gated);
    KernelLatches.releaseWhenParked(Thread.currentThread(), gate);
    acc.synchronize();
    assertEquals(3, finished.get());
  }

  @Test
  void synchronizeOfOneDeviceDoesNotWaitForTheOther() throws Exception {
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch gate = new CountDownLatch(1);
    acc.newStream(D1)
        .launch(
            "busy",
            () -> {
              started.countDown();
              KernelLatches.await(gate);
            });
    CompletionStage<Void> deviceOne = acc.synchronizeAsync(D1);
    try {
      assertReleased(started);
      get(acc.synchronizeAsync(D0));
      acc.synchronize(D0);
      assertFalse(deviceOne.toCompletableFuture().isDone());
    } finally {
      gate.countDown();
    }
    get(deviceOne);
  }
}
