package dev.openaccel.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceType;
import org.junit.jupiter.api.Test;

/** The node/type:index names of devices across the cluster. */
class RemoteDeviceTest {
  private static final String NODE = "pekko://openaccel@127.0.0.1:25520";

  @Test
  void parsesNodeAndDeviceAtTheLastSlash() {
    RemoteDevice device = RemoteDevice.parse(NODE + "/openreg:1");
    assertEquals(NODE, device.node());
    assertEquals(Device.of(DeviceType.of("openreg"), 1), device.device());
    assertEquals(NODE + "/openreg:1", device.toString());
  }

  @Test
  void aDeviceWithoutIndexIsRejected() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> RemoteDevice.parse(NODE + "/openreg"));
    assertTrue(e.getMessage().contains("needs a device index"), e.getMessage());
  }

  @Test
  void textWithoutNodeIsRejected() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> RemoteDevice.parse("openreg:1"));
    assertTrue(e.getMessage().contains("expected node/type:index"), e.getMessage());
  }

  @Test
  void textWithoutDeviceIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> RemoteDevice.parse(NODE + "/"));
  }

  @Test
  void aBadDeviceTypeIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> RemoteDevice.parse(NODE + "/Open-Reg:1"));
  }
}
