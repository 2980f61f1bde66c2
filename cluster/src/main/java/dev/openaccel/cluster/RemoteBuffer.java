package dev.openaccel.cluster;

import dev.openaccel.runtime.Device;
import java.util.Objects;

/**
 * A block of device memory on some node, named by that node's id for it: a plain value that travels
 * in messages. Allocate and free it with {@link ClusterAccelerator}; fill, read and copy it with a
 * {@link RemoteStream}; hand it to kernels launched by name.
 *
 * @param node the owning node
 * @param device the device on that node
 * @param bufferId the owning node's id for it
 * @param size its size in bytes
 */
public record RemoteBuffer(String node, Device device, long bufferId, long size) {
  /**
   * Checks the fields.
   *
   * @throws IllegalArgumentException "invalid remote buffer: id ..., size ..." unless both are
   *     positive; {@link NullPointerException} for a null node or device
   */
  public RemoteBuffer {
    Objects.requireNonNull(node, "node");
    Objects.requireNonNull(device, "device");
    if (bufferId <= 0 || size <= 0) {
      throw new IllegalArgumentException(
          "invalid remote buffer: id " + bufferId + ", size " + size);
    }
  }

  /** The device, with its node. */
  public RemoteDevice remoteDevice() {
    return new RemoteDevice(node, device);
  }

  @Override
  public String toString() {
    return "RemoteBuffer(" + node + "/" + device + ", id=" + bufferId + ", size=" + size + ")";
  }
}
