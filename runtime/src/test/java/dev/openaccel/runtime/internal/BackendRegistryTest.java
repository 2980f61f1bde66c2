package dev.openaccel.runtime.internal;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.testing.FailingBackendProvider;
import dev.openaccel.runtime.testing.MinimalBackendProvider;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * How the runtime finds, creates and hides backends: with the test backends {@code minimal} and
 * {@code broken} (whose provider throws) on the class path.
 */
class BackendRegistryTest {
  private static final DeviceType MINIMAL = MinimalBackendProvider.TYPE;
  private static final DeviceType BROKEN = FailingBackendProvider.TYPE;
  private static final DeviceType UNKNOWN = DeviceType.of("nosuch");
  private static final AtomicInteger SYSTEMS = new AtomicInteger();

  private static Accelerator start(String settings) {
    Config config =
        ConfigFactory.parseString(settings)
            .withFallback(
                ConfigFactory.parseString(
                    "openaccel.system-name = backend-registry-" + SYSTEMS.incrementAndGet()))
            .withFallback(ConfigFactory.parseResources("application-test.conf"));
    return Accelerator.start(config);
  }

  private static void assertFailsWith(
      Class<? extends Throwable> type, String phrase, Executable call) {
    Throwable e = assertThrows(type, call);
    assertTrue(
        e.getMessage() != null && e.getMessage().contains(phrase),
        () -> "expected '" + phrase + "' in: " + e.getMessage());
  }

  @Test
  void deviceTypesListEveryBackendOnTheClassPath() {
    try (Accelerator accelerator = start("openaccel.default-device-type = minimal")) {
      assertEquals(Set.of(MINIMAL, BROKEN), accelerator.deviceTypes());
      assertEquals(MINIMAL, accelerator.currentAccelerator());
      assertEquals(MinimalBackendProvider.DEVICE_COUNT, accelerator.deviceCount());
    }
  }

  @Test
  void aBackendThatFailedToInitialiseHasNoDevices() {
    try (Accelerator accelerator = start("openaccel.default-device-type = broken")) {
      assertEquals(0, assertDoesNotThrow(() -> accelerator.deviceCount(BROKEN)));
      assertEquals(0, assertDoesNotThrow(() -> accelerator.deviceCount()));
      assertEquals(0, AcceleratorCore.get(accelerator.system()).router(BROKEN).deviceCount());
    }
  }

  @Test
  void operationsOnAFailedBackendReportItsFailure() {
    try (Accelerator accelerator = start("openaccel.default-device-type = minimal")) {
      Device device = Device.of(BROKEN, 0);
      Class<IllegalStateException> failed = IllegalStateException.class;
      String phrase = FailingBackendProvider.FAILURE;
      assertFailsWith(failed, phrase, () -> accelerator.defaultStream(device));
      assertFailsWith(failed, phrase, () -> accelerator.newStream(device));
      assertFailsWith(failed, phrase, () -> accelerator.setDevice(device));
      assertFailsWith(failed, phrase, () -> accelerator.currentDevice(BROKEN));
      assertFailsWith(failed, phrase, () -> accelerator.synchronize(device));
      assertFailsWith(failed, phrase, () -> accelerator.deviceGuard(device));
      assertFailsWith(
          failed, "backend broken failed to initialise", () -> accelerator.newStream(device));
    }
  }

  @Test
  void creatingAnEventOnAFailedBackendReportsItsFailure() {
    try (Accelerator accelerator = start("openaccel.default-device-type = minimal")) {
      assertFailsWith(
          IllegalStateException.class,
          FailingBackendProvider.FAILURE,
          () -> accelerator.newEvent(BROKEN, EventOptions.defaults()));
    }
  }

  @Test
  void aFailedBackendDoesNotAffectTheOthers() {
    try (Accelerator accelerator = start("openaccel.default-device-type = minimal")) {
      Device device = Device.of(MINIMAL, 1);
      assertEquals(1, accelerator.defaultStream(device).deviceIndex());
      accelerator.synchronize(device);
    }
  }

  @Test
  void anUnknownDeviceTypeIsRejectedEverywhere() {
    try (Accelerator accelerator = start("openaccel.default-device-type = minimal")) {
      Class<IllegalArgumentException> rejected = IllegalArgumentException.class;
      String phrase = "no backend for device type";
      Device device = Device.of(UNKNOWN, 0);
      assertFailsWith(rejected, phrase, () -> accelerator.deviceCount(UNKNOWN));
      assertFailsWith(
          rejected, phrase, () -> AcceleratorCore.get(accelerator.system()).router(UNKNOWN));
      assertFailsWith(rejected, phrase, () -> accelerator.priorityRange(UNKNOWN));
      assertFailsWith(rejected, phrase, () -> accelerator.defaultStream(device));
      assertFailsWith(rejected, phrase, () -> accelerator.setDevice(device));
      assertFailsWith(
          rejected, phrase, () -> accelerator.newEvent(UNKNOWN, EventOptions.defaults()));
    }
  }

  @Test
  void severalBackendsWithoutAConfiguredDefaultHaveNoCurrentAccelerator() {
    try (Accelerator accelerator = start("openaccel.default-device-type = \"\"")) {
      assertFailsWith(
          IllegalStateException.class,
          "openaccel.default-device-type",
          accelerator::currentAccelerator);
      assertEquals(0, assertDoesNotThrow(() -> accelerator.deviceCount()));
      assertEquals(MinimalBackendProvider.DEVICE_COUNT, accelerator.deviceCount(MINIMAL));
    }
  }

  @Test
  void disabledBackendsAreHidden() {
    try (Accelerator accelerator = start("openaccel.disabled-backends = [broken]")) {
      assertEquals(Set.of(MINIMAL), accelerator.deviceTypes());
      assertEquals(MINIMAL, accelerator.currentAccelerator(), "the only backend is the default");
      assertFailsWith(
          IllegalArgumentException.class,
          "no backend for device type",
          () -> accelerator.deviceCount(BROKEN));
    }
  }

  @Test
  void disablingEveryBackendLeavesNoDevices() {
    try (Accelerator accelerator = start("openaccel.disabled-backends = [broken, minimal]")) {
      assertEquals(Set.of(), accelerator.deviceTypes());
      assertEquals(0, assertDoesNotThrow(() -> accelerator.deviceCount()));
      assertThrows(IllegalStateException.class, accelerator::currentAccelerator);
    }
  }

  @Test
  void eachAcceleratorCreatesItsOwnBackends() {
    try (Accelerator first = start("openaccel.disabled-backends = [broken]");
        Accelerator second = start("openaccel.disabled-backends = [broken]")) {
      Device device = Device.of(MINIMAL, 0);
      assertTrue(
          AcceleratorCore.get(first.system()).router(MINIMAL).impl()
              != AcceleratorCore.get(second.system()).router(MINIMAL).impl());
      first.setDevice(Device.of(MINIMAL, 1));
      assertEquals(device, second.currentDevice(MINIMAL), "accelerators share a current device");
    }
  }
}
