package dev.openaccel.cluster;

import dev.openaccel.runtime.Device;
import java.util.Objects;

/**
 * A device of one node of the cluster, written {@code node/type:index}, for example {@code
 * pekko://openaccel@127.0.0.1:25520/openreg:1}. A plain value: it travels in messages.
 *
 * @param node the address of the node's actor system, as {@code ActorSystem.address().toString()}
 * @param device the device on that node; it must have an index
 */
public record RemoteDevice(String node, Device device) {
  /**
   * Checks the fields.
   *
   * @throws IllegalArgumentException "invalid node address '...'" for an empty node or one ending
   *     in {@code /}, "a remote device needs a device index, got ..." for a device without index
   */
  public RemoteDevice {
    Objects.requireNonNull(node, "node");
    Objects.requireNonNull(device, "device");
    if (node.isEmpty() || node.endsWith("/")) {
      throw new IllegalArgumentException("invalid node address '" + node + "'");
    }
    if (!device.hasIndex()) {
      throw new IllegalArgumentException("a remote device needs a device index, got " + device);
    }
  }

  /**
   * Parses {@code node/type:index}: the device is the part after the last {@code /}.
   *
   * @throws IllegalArgumentException if the text has no node part or no valid indexed device
   */
  public static RemoteDevice parse(String text) {
    Objects.requireNonNull(text, "text");
    int slash = text.lastIndexOf('/');
    if (slash <= 0 || slash == text.length() - 1) {
      throw new IllegalArgumentException(
          "invalid remote device '" + text + "': expected node/type:index");
    }
    return new RemoteDevice(text.substring(0, slash), Device.parse(text.substring(slash + 1)));
  }

  @Override
  public String toString() {
    return node + "/" + device;
  }
}
