package dev.openaccel.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.internal.AcceleratorCore;
import dev.openaccel.runtime.spi.Capability;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Streams that wait on the device for the same records in opposite orders, over and over, as
 * double-buffered pipelines do: every round completes. Each wait is a barrier on another queue's
 * marker, and the reports of markers and barriers pass between the queues' callbacks, so a lock
 * taken in one order on one stream and in the other order on another would hang a round.
 */
@RequiresOpenCl
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CrossWaitsTest {
  private static final String SOURCE =
      """
      __kernel void spin(__global float* x, int n) {
        float acc = x[0];
        for (int i = 0; i < n; i++) acc = acc * 0.5f + 1.0f;
        x[0] = acc;
      }
      """;
  private static final Duration WAIT = Duration.ofSeconds(10);

  private Accelerator accelerator;
  private DeviceKernel spin;
  private Device device;

  @BeforeAll
  void start() {
    accelerator = OpenClTestSupport.start();
    spin = OpenCl.get(accelerator).compile(SOURCE).kernel("spin");
    device = Device.of(OpenClProvider.TYPE, 0);
  }

  @AfterAll
  void close() {
    accelerator.close();
  }

  @Test
  void crossDeviceWaitsAreDeclaredOnlyWithASecondDevice() {
    try (Accelerator one = OpenClTestSupport.start("openaccel.opencl.devices = [0]")) {
      assertEquals(1, one.deviceCount(OpenClProvider.TYPE));
      assertFalse(declaresCrossDeviceWait(one), "declared with one device");
    }
    assertEquals(
        accelerator.deviceCount(OpenClProvider.TYPE) > 1,
        declaresCrossDeviceWait(accelerator),
        "declared with " + accelerator.deviceCount(OpenClProvider.TYPE) + " devices");
  }

  private static boolean declaresCrossDeviceWait(Accelerator accelerator) {
    return AcceleratorCore.get(accelerator.system())
        .router(OpenClProvider.TYPE)
        .capabilities()
        .contains(Capability.CROSS_DEVICE_WAIT);
  }

  @Test
  void twoStreamsWaitingOnTwoRecordsInOppositeOrdersFinishEveryRound() {
    Stream first = accelerator.newStream(device);
    Stream second = accelerator.newStream(device);
    Stream ab = accelerator.newStream(device);
    Stream ba = accelerator.newStream(device);
    Event a = accelerator.newEvent(OpenClProvider.TYPE, EventOptions.defaults());
    Event b = accelerator.newEvent(OpenClProvider.TYPE, EventOptions.defaults());
    Event abDone = accelerator.newEvent(OpenClProvider.TYPE, EventOptions.defaults());
    Event baDone = accelerator.newEvent(OpenClProvider.TYPE, EventOptions.defaults());
    try (DeviceBuffer x = accelerator.allocate(device, 4);
        DeviceBuffer y = accelerator.allocate(device, 4);
        DeviceBuffer u = accelerator.allocate(device, 4);
        DeviceBuffer v = accelerator.allocate(device, 4)) {
      for (int round = 0; round < 300; round++) {
        spin.launch(first, LaunchShape.of(1), x, 2_000 + round % 7 * 500);
        a.record(first);
        spin.launch(second, LaunchShape.of(1), y, 2_000 + round % 5 * 500);
        b.record(second);
        a.block(ab);
        b.block(ab);
        b.block(ba);
        a.block(ba);
        spin.launch(ab, LaunchShape.of(1), u, 100);
        spin.launch(ba, LaunchShape.of(1), v, 100);
        abDone.record(ab);
        baDone.record(ba);
        int r = round;
        assertTrue(abDone.synchronize(WAIT), () -> "round " + r + " did not finish on one stream");
        assertTrue(baDone.synchronize(WAIT), () -> "round " + r + " did not finish on the other");
      }
    } finally {
      a.close();
      b.close();
      abDone.close();
      baDone.close();
    }
  }
}
