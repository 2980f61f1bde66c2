package dev.openaccel.openreg.device;

import static dev.openaccel.openreg.testing.KernelLatches.D0;
import static dev.openaccel.openreg.testing.KernelLatches.D1;
import static dev.openaccel.openreg.testing.KernelLatches.OPENREG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import dev.openaccel.openreg.testing.ForeignStreams;
import dev.openaccel.openreg.testing.KernelLatches;
import dev.openaccel.openreg.testing.SharedAcceleratorTest;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.Stream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;
import java.util.stream.Stream.Builder;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.function.Executable;

/**
 * Misuse of devices at every entry point: an index past the device count is an {@link
 * IllegalArgumentException} containing "device index is out of range" (OpenReg aborts instead), and
 * a device type without a backend is one containing "no backend for device type". Neither changes
 * the caller's context.
 */
class DeviceValidationTest extends SharedAcceleratorTest {
  private static final Device D2 = Device.of(OPENREG, 2);
  private static final DeviceType NOSUCH = DeviceType.of("nosuch");
  private static final Device FOREIGN = Device.of(NOSUCH, 0);

  private java.util.stream.Stream<DynamicTest> rejections(
      String phrase, Map<String, Executable> calls) {
    Builder<DynamicTest> tests = java.util.stream.Stream.builder();
    calls.forEach(
        (name, call) ->
            tests.add(
                dynamicTest(
                    name,
                    () -> {
                      acc.setDeviceIndex(1);
                      try {
                        IllegalArgumentException e =
                            assertThrows(IllegalArgumentException.class, call, name);
                        assertTrue(e.getMessage().contains(phrase), e.getMessage());
                        assertEquals(D1, acc.currentDevice(), "context changed by " + name);
                        assertEquals(acc.defaultStream(D1), acc.currentStream());
                        assertEquals(acc.defaultStream(D0), acc.currentStream(D0));
                      } finally {
                        KernelLatches.resetContext(acc);
                      }
                    })));
    return tests.build();
  }

  @TestFactory
  java.util.stream.Stream<DynamicTest> outOfRangeIndexIsRejectedEverywhere() {
    return rejections(
        "device index is out of range",
        Map.ofEntries(
            Map.entry("setDeviceIndex", () -> acc.setDeviceIndex(2)),
            Map.entry("setDevice", () -> acc.setDevice(D2)),
            Map.entry("deviceGuard(int)", () -> acc.deviceGuard(2).close()),
            Map.entry("deviceGuard(Device)", () -> acc.deviceGuard(D2).close()),
            Map.entry("newStream", () -> acc.newStream(D2)),
            Map.entry("newStream(priority)", () -> acc.newStream(D2, 1)),
            Map.entry("defaultStream", () -> acc.defaultStream(D2)),
            Map.entry("currentStream", () -> acc.currentStream(D2)),
            Map.entry("streamFromPool", () -> acc.streamFromPool(D2, false)),
            Map.entry("stream(id)", () -> acc.stream(D2, 0)),
            Map.entry("synchronize", () -> acc.synchronize(D2)),
            Map.entry("synchronizeAsync", () -> call(() -> acc.synchronizeAsync(D2))),
            Map.entry("setDevice(100)", () -> acc.setDevice(Device.of(OPENREG, 100)))));
  }

  @TestFactory
  java.util.stream.Stream<DynamicTest> unknownDeviceTypeIsRejectedEverywhere() {
    Stream foreign = ForeignStreams.of(FOREIGN, 1);
    return rejections(
        "no backend for device type",
        Map.ofEntries(
            Map.entry("deviceCount(type)", () -> acc.deviceCount(NOSUCH)),
            Map.entry("priorityRange", () -> acc.priorityRange(NOSUCH)),
            Map.entry("currentDevice(type)", () -> acc.currentDevice(NOSUCH)),
            Map.entry("setDevice", () -> acc.setDevice(FOREIGN)),
            Map.entry("deviceGuard", () -> acc.deviceGuard(FOREIGN).close()),
            Map.entry("currentStream", () -> acc.currentStream(FOREIGN)),
            Map.entry("defaultStream", () -> acc.defaultStream(FOREIGN)),
            Map.entry("newStream", () -> acc.newStream(FOREIGN)),
            Map.entry("streamFromPool", () -> acc.streamFromPool(FOREIGN, true)),
            Map.entry("stream(id)", () -> acc.stream(FOREIGN, 0)),
            Map.entry("synchronize", () -> acc.synchronize(FOREIGN)),
            Map.entry("synchronizeAsync", () -> call(() -> acc.synchronizeAsync(FOREIGN))),
            Map.entry("newEvent", () -> acc.newEvent(NOSUCH, EventOptions.defaults())),
            Map.entry("setStream", () -> acc.setStream(foreign)),
            Map.entry("streamGuard", () -> acc.streamGuard(foreign).close()),
            Map.entry("multiStreamGuard", () -> acc.multiStreamGuard(List.of(foreign)).close())));
  }

  private static void call(Callable<CompletionStage<Void>> call) throws Exception {
    call.call();
  }
}
