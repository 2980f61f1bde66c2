package dev.openaccel.cluster;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventHandle;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.StreamGuard;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * What this node offers the cluster: its streams, the buffers and interprocess events created
 * through the cluster API ({@link Resources}), the pinned event records waits of other nodes
 * captured ({@link Pins}), and its kernel registry. Both the local short-cut ({@link LocalPort})
 * and the {@link NodeGateway} serving other nodes call it; {@code requester} is the node that asks.
 * Internal.
 *
 * <p>Owns: the {@link Resources}, the {@link Pins} and the {@link Transfers} (bulk data of this
 * node's buffers) it creates. Thread-safe: every method only enqueues on streams or reads
 * concurrent maps.
 */
final class LocalNode {
  private final Accelerator accelerator;
  private final KernelRegistry kernels;
  private final String node;
  private final Function<String, NodePort> ports;
  private final Resources resources;
  private final Pins pins = new Pins();
  private final Transfers transfers;

  LocalNode(
      Accelerator accelerator,
      KernelRegistry kernels,
      String node,
      Function<String, NodePort> ports,
      Bulk bulk) {
    this.accelerator = accelerator;
    this.kernels = kernels;
    this.node = node;
    this.ports = ports;
    this.resources = new Resources(node);
    this.transfers = new Transfers(this, ports, bulk.inbox(), bulk.pool());
  }

  /** Writes, reads and copies whose bytes cross the bulk lane. */
  Transfers transfers() {
    return transfers;
  }

  String node() {
    return node;
  }

  Accelerator accelerator() {
    return accelerator;
  }

  /** Every device of every backend of this node. */
  List<Device> devices() {
    List<Device> all = new ArrayList<>();
    for (DeviceType type : accelerator.deviceTypes()) {
      for (int i = 0; i < accelerator.deviceCount(type); i++) {
        all.add(Device.of(type, i));
      }
    }
    return all;
  }

  Stream stream(Device device, long streamId) {
    return accelerator.stream(device, streamId);
  }

  long newStream(Device device, int priority) {
    return accelerator.newStream(device, priority).id();
  }

  void launch(Device device, long streamId, String name, byte[] args, List<Long> bufferIds) {
    Stream stream = stream(device, streamId);
    RemoteKernel kernel = kernels.find(name).orElse(null);
    DeviceBuffer[] used;
    try {
      used = buffers(bufferIds, stream);
      if (kernel == null) {
        throw new IllegalArgumentException(
            "no kernel named '" + name + "' is registered on node " + node);
      }
    } catch (RuntimeException misuse) {
      failOn(stream, name, misuse);
      return;
    }
    stream.launch(name, context -> kernel.run(context, args), used);
  }

  /**
   * Records event {@code eventId}, or a new interprocess event owned by {@code requester} if 0, and
   * returns its handle.
   */
  EventHandle record(String requester, Device device, long streamId, long eventId) {
    Stream stream = stream(device, streamId);
    if (eventId == 0) {
      Event event =
          accelerator.newEvent(device.type(), EventOptions.defaults().withInterprocess(true));
      event.record(stream);
      resources.addEvent(requester, event);
      return event.handle();
    }
    Event event = resources.event(eventId);
    event.record(stream);
    return event.handle();
  }

  /**
   * Fixes the record of this node's event behind {@code handle} that is current now, as pin {@code
   * pinId} of {@code requester}, for node {@code awaiter} to wait on.
   *
   * @throws IllegalArgumentException if the event is unknown here (the pin then fails its wait)
   */
  void pin(String requester, EventHandle handle, long pinId, String awaiter) {
    Pins.Key key = new Pins.Key(requester, pinId);
    try {
      pins.pin(key, awaiter, openLocal(handle).completion());
    } catch (RuntimeException e) {
      pins.refuse(key, awaiter, e);
      throw e;
    }
  }

  /** Completes when the record pinned as {@code (pinner, pinId)} completes. */
  CompletionStage<Void> awaitPin(String pinner, long pinId) {
    return pins.await(new Pins.Key(pinner, pinId));
  }

  /**
   * Makes the stream wait for the record of the event behind {@code handle} pinned as {@code
   * (pinner, pinId)} at the event's node; a failure of that record, or a node that is not a member,
   * fails the wait with a message naming the event and its node.
   */
  void waitEvent(Device device, long streamId, EventHandle handle, String pinner, long pinId) {
    Stream stream = stream(device, streamId);
    String event = "event " + handle.eventId() + " of node " + handle.node();
    try {
      CompletionStage<Void> pinned = ports.apply(handle.node()).awaitPin(pinner, pinId);
      stream.waitFor(Failures.naming(pinned, event));
    } catch (RuntimeException misuse) {
      failOn(stream, "wait for " + event, misuse);
    }
  }

  void closeEvent(String requester, long eventId) {
    resources.closeEvent(requester, eventId);
  }

  CompletionStage<Void> synchronize(Device device, long streamId) {
    return stream(device, streamId).synchronizeAsync();
  }

  long allocate(String requester, Device device, long bytes) {
    DeviceBuffer buffer;
    // On the device's default stream, whatever stream this thread has made current.
    try (StreamGuard onDefault = accelerator.streamGuard(accelerator.defaultStream(device))) {
      buffer = accelerator.allocate(device, bytes);
    }
    return resources.addBuffer(requester, buffer);
  }

  void free(String requester, long bufferId) {
    resources.freeBuffer(requester, bufferId);
  }

  /** Releases what {@code left}, a node that left the cluster, owned or pinned here. */
  int release(String left) {
    pins.release(left);
    return resources.release(left);
  }

  /** Live buffers, events and pins, for tests and diagnostics. */
  int liveResources() {
    return resources.size() + pins.size();
  }

  void write(Device device, long streamId, long bufferId, byte[] bytes) {
    Stream stream = stream(device, streamId);
    DeviceBuffer buffer;
    try {
      buffer = buffer(bufferId, stream);
    } catch (RuntimeException misuse) {
      failOn(stream, "write", misuse);
      return;
    }
    stream.launch("write", context -> context.buffer(0).put(0, bytes), buffer);
  }

  /** The live interprocess event behind {@code handle}, as a local view. */
  Event openLocal(EventHandle handle) {
    return accelerator.openEvent(handle);
  }

  /** The buffer {@code bufferId} created through the cluster API. */
  DeviceBuffer buffer(long bufferId) {
    return resources.buffer(bufferId);
  }

  /** The buffer {@code bufferId}, marked as used on {@code stream}. */
  DeviceBuffer buffer(long bufferId, Stream stream) {
    DeviceBuffer buffer = resources.buffer(bufferId);
    if (!buffer.device().equals(stream.device())) {
      throw new IllegalArgumentException(
          "buffer "
              + bufferId
              + " is on "
              + buffer.device()
              + ", the stream on "
              + stream.device());
    }
    buffer.recordStream(stream);
    return buffer;
  }

  private DeviceBuffer[] buffers(List<Long> ids, Stream stream) {
    DeviceBuffer[] used = new DeviceBuffer[ids.size()];
    for (int i = 0; i < used.length; i++) {
      used[i] = buffer(ids.get(i), stream);
    }
    return used;
  }

  /**
   * Puts a misuse found on this node into the stream as a failed kernel, so the requester's next
   * synchronization reports it instead of the error being lost.
   */
  static void failOn(Stream stream, String name, RuntimeException misuse) {
    stream.launch(
        name,
        () -> {
          throw misuse;
        });
  }
}
