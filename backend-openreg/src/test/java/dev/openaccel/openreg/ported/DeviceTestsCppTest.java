package dev.openaccel.openreg.ported;

import static dev.openaccel.openreg.testing.KernelLatches.D0;
import static dev.openaccel.openreg.testing.KernelLatches.D1;
import static dev.openaccel.openreg.testing.KernelLatches.OPENREG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.openreg.testing.SharedAcceleratorTest;
import dev.openaccel.runtime.Device;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Port of OpenReg's own C++ device tests
 * (torch_openreg/third_party/openreg/tests/device_tests.cpp).
 *
 * <p>Deliberate differences: {@code orSetDevice(-1)} is an error in OpenReg, but {@code
 * setDeviceIndex(-1)} is a no-op here (torch semantics) while {@code Device.of(type, -2)} is
 * rejected; null output pointers become {@code null} arguments.
 */
class DeviceTestsCppTest extends SharedAcceleratorTest {
  @BeforeEach
  void setUp() {
    acc.setDevice(D0);
  }

  // GetDeviceCountValid
  @Test
  void deviceCountIsTwo() {
    assertEquals(2, acc.deviceCount());
    assertEquals(2, acc.deviceCount(OPENREG));
  }

  // GetDeviceValid
  @Test
  void currentDeviceIsZeroAfterSetUp() {
    assertEquals(0, acc.currentDeviceIndex());
    assertEquals(D0, acc.currentDevice());
    assertEquals(D0, acc.currentDevice(OPENREG));
  }

  // SetDeviceValid
  @Test
  void setDeviceToOneAndBackToZero() {
    acc.setDevice(D1);
    assertEquals(D1, acc.currentDevice());
    acc.setDevice(D0);
    assertEquals(D0, acc.currentDevice());
  }

  // SetDeviceInvalidNegative
  @Test
  void negativeDeviceIndexIsANoOp() {
    acc.setDevice(D1);
    acc.setDeviceIndex(-1);
    assertEquals(1, acc.currentDeviceIndex());
    acc.setDeviceIndex(-7);
    assertEquals(1, acc.currentDeviceIndex());
    acc.setDevice(Device.parse("openreg"));
    assertEquals(1, acc.currentDeviceIndex());
  }

  @Test
  void deviceIndexBelowMinusOneCannotBeExpressed() {
    assertThrows(IllegalArgumentException.class, () -> Device.of(OPENREG, -2));
  }

  // SetDeviceInvalidTooLarge
  @Test
  void deviceIndexEqualToTheCountIsRejected() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> acc.setDevice(Device.of(OPENREG, 2)));
    assertTrue(e.getMessage().contains("device index is out of range"), e.getMessage());
    assertEquals(D0, acc.currentDevice());
  }

  // GetDeviceNullptr, GetDeviceCountNullptr
  @Test
  void nullDeviceIsRejected() {
    assertThrows(NullPointerException.class, () -> acc.setDevice(null));
    assertThrows(NullPointerException.class, () -> acc.deviceCount(null));
    assertEquals(D0, acc.currentDevice());
  }
}
