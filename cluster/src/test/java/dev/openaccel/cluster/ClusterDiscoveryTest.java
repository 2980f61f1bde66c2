package dev.openaccel.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceType;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Three nodes see one pool of devices, each named node/type:index, found through the Receptionist.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClusterDiscoveryTest {
  private TestCluster cluster;

  @BeforeAll
  void start() {
    cluster = TestCluster.start(3);
  }

  @AfterAll
  void stop() {
    cluster.close();
  }

  @Test
  void everyNodeSeesTheDevicesOfAllNodes() {
    Set<String> addresses =
        Set.of(cluster.node(0).selfNode(), cluster.node(1).selfNode(), cluster.node(2).selfNode());
    for (int i = 0; i < 3; i++) {
      ClusterAccelerator node = cluster.node(i);
      assertEquals(addresses, node.nodes());
      List<RemoteDevice> devices = node.devices();
      assertEquals(6, devices.size(), devices::toString);
      assertEquals(addresses, devices.stream().map(RemoteDevice::node).collect(Collectors.toSet()));
      assertTrue(devices.contains(cluster.device(2, 1)));
    }
  }

  @Test
  void deviceNamesReadNodeSlashTypeColonIndex() {
    RemoteDevice device = cluster.device(1, 1);
    assertEquals(cluster.node(1).selfNode() + "/openreg:1", device.toString());
    assertEquals(device, RemoteDevice.parse(device.toString()));
    assertEquals(Device.of(DeviceType.of("openreg"), 1), device.device());
  }

  @Test
  void nodeAddressesAreTheActorSystemAddresses() {
    assertEquals(cluster.system(2).address().toString(), cluster.node(2).selfNode());
    assertTrue(cluster.node(2).selfNode().startsWith("pekko://openaccel@127.0.0.1:"));
  }

  @Test
  void anExtensionOutsideAClusterIsInactiveAndSaysWhy() {
    try (Accelerator local =
        Accelerator.start(ConfigFactory.parseString("openaccel.system-name = plain-node"))) {
      ClusterAccelerator inactive = ClusterAccelerator.get(local.system());
      assertFalse(inactive.enabled());
      IllegalStateException e = assertThrows(IllegalStateException.class, inactive::devices);
      assertTrue(e.getMessage().contains("pekko.actor.provider = cluster"), e.getMessage());
    }
  }
}
