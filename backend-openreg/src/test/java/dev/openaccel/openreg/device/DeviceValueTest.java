package dev.openaccel.openreg.device;

import static dev.openaccel.openreg.testing.KernelLatches.OPENREG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceType;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The identity values {@link Device} and {@link DeviceType}: parsing ({@code
 * torch.device("openreg:1")} in test_device.py's {@code test_device_properties}), printing and name
 * validation.
 */
class DeviceValueTest {

  @Test
  void parseReadsTypeAndIndex() {
    Device device = Device.parse("openreg:1");
    assertEquals(OPENREG, device.type());
    assertEquals(1, device.index());
    assertTrue(device.hasIndex());
    assertEquals(Device.of(OPENREG, 1), device);
    assertEquals(Device.of(DeviceType.of("cuda"), 12), Device.parse("cuda:12"));
  }

  @Test
  void parseWithoutIndexGivesIndexMinusOne() {
    Device device = Device.parse("openreg");
    assertEquals(OPENREG, device.type());
    assertEquals(-1, device.index());
    assertFalse(device.hasIndex());
  }

  @Test
  void toStringRoundTripsThroughParse() {
    for (String text : List.of("openreg", "openreg:0", "openreg:1", "my_dev2:30")) {
      assertEquals(text, Device.parse(text).toString());
    }
    assertEquals("openreg:0", Device.of(OPENREG, 0).toString());
    assertEquals("openreg", Device.of(OPENREG, -1).toString());
  }

  @Test
  void malformedDeviceTextIsRejected() {
    for (String text :
        List.of(
            "",
            "openreg:",
            "openreg:x",
            "openreg:-1",
            "openreg:1:2",
            ":1",
            "OpenReg:0",
            "open reg",
            "openreg:99999999999")) {
      assertThrows(IllegalArgumentException.class, () -> Device.parse(text), text);
    }
    assertThrows(NullPointerException.class, () -> Device.parse(null));
  }

  @Test
  void indexBelowMinusOneIsRejected() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Device.of(OPENREG, -2));
    assertTrue(e.getMessage().contains("-2"), e.getMessage());
    assertThrows(NullPointerException.class, () -> Device.of(null, 0));
  }

  @Test
  void deviceTypeAcceptsLowerCaseIdentifiers() {
    for (String name : List.of("openreg", "a", "x_1", "cuda", "private_use_1")) {
      assertEquals(name, DeviceType.of(name).name());
      assertEquals(name, DeviceType.of(name).toString());
    }
    assertEquals(DeviceType.of("openreg"), OPENREG);
  }

  @Test
  void deviceTypeRejectsOtherNames() {
    for (String name : List.of("", "OpenReg", "1abc", "open-reg", "open reg", "_x", "openreg:0")) {
      assertThrows(IllegalArgumentException.class, () -> DeviceType.of(name), name);
    }
    assertThrows(NullPointerException.class, () -> DeviceType.of(null));
  }
}
