package dev.openaccel.cluster;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventHandle;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.internal.AcceleratorCore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * What this node offers the cluster: its streams, the buffers and interprocess events created
 * through the cluster API, and its kernel registry. Both the local short-cut ({@link LocalPort})
 * and the {@link NodeGateway} serving other nodes call it. Internal.
 *
 * <p>Owns: the tables of buffers and events handed out by id, and one transfer stream per device
 * for copies other nodes drive. Thread-safe: every method only enqueues on streams or reads
 * concurrent maps.
 */
final class LocalNode {
  private final Accelerator accelerator;
  private final KernelRegistry kernels;
  private final String node;
  private final Function<String, NodePort> ports;
  private final Map<Long, DeviceBuffer> buffers = new ConcurrentHashMap<>();
  private final Map<Long, Event> events = new ConcurrentHashMap<>();
  private final Map<Device, Stream> transferStreams = new ConcurrentHashMap<>();
  private final AtomicLong bufferIds = new AtomicLong();

  LocalNode(
      Accelerator accelerator,
      KernelRegistry kernels,
      String node,
      Function<String, NodePort> ports) {
    this.accelerator = accelerator;
    this.kernels = kernels;
    this.node = node;
    this.ports = ports;
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

  /** Records event {@code eventId}, or a new interprocess event if 0, and returns its handle. */
  EventHandle record(Device device, long streamId, long eventId) {
    Stream stream = stream(device, streamId);
    if (eventId == 0) {
      Event event =
          accelerator.newEvent(device.type(), EventOptions.defaults().withInterprocess(true));
      event.record(stream);
      events.put(event.id(), event);
      return event.handle();
    }
    Event event = events.get(eventId);
    if (event == null) {
      throw new IllegalArgumentException(
          "no interprocess event " + eventId + " was created through the cluster on node " + node);
    }
    event.record(stream);
    return event.handle();
  }

  /**
   * Makes the stream wait for the event behind {@code handle}. An event of another node is opened
   * without the round trip {@code openEvent} makes to check it exists: a gateway must not block,
   * and an unknown event fails the wait instead.
   */
  void waitEvent(Device device, long streamId, EventHandle handle) {
    Stream stream = stream(device, streamId);
    try {
      Event event =
          handle.node().equals(node)
              ? accelerator.openEvent(handle)
              : new RemoteEvent(accelerator, handle, ports.apply(handle.node()));
      event.block(stream);
    } catch (RuntimeException misuse) {
      failOn(stream, "wait for event " + handle.eventId(), misuse);
    }
  }

  /** Closes an interprocess event created through the cluster here; unknown ids are ignored. */
  void closeEvent(long eventId) {
    Event event = events.remove(eventId);
    if (event != null) {
      event.close();
    }
  }

  CompletionStage<Void> synchronize(Device device, long streamId) {
    return stream(device, streamId).synchronizeAsync();
  }

  long allocate(Device device, long bytes) {
    DeviceBuffer buffer =
        AcceleratorCore.get(accelerator.system())
            .router(device.type())
            .allocate(accelerator.defaultStream(device), bytes);
    long id = bufferIds.incrementAndGet();
    buffers.put(id, buffer);
    return id;
  }

  void free(long bufferId) {
    DeviceBuffer buffer = buffers.remove(bufferId);
    if (buffer != null) {
      buffer.close();
    }
  }

  void write(Device device, long streamId, long bufferId, int offset, byte[] bytes) {
    Stream stream = stream(device, streamId);
    DeviceBuffer buffer;
    try {
      buffer = buffer(bufferId, stream);
    } catch (RuntimeException misuse) {
      failOn(stream, "write", misuse);
      return;
    }
    writeOn(stream, buffer, offset, bytes);
  }

  CompletionStage<byte[]> read(
      Device device, long streamId, long bufferId, int offset, int length) {
    Stream stream = stream(device, streamId);
    return readOn(stream, buffer(bufferId, stream), offset, length);
  }

  /** Reads on the buffer's transfer stream: ordered only by the events the requester waited on. */
  CompletionStage<byte[]> fetch(long bufferId, int offset, int length) {
    DeviceBuffer buffer = known(bufferId);
    Stream stream = transferStream(buffer.device());
    buffer.recordStream(stream);
    return readOn(stream, buffer, offset, length);
  }

  /** Writes on the buffer's transfer stream; the stage completes when the bytes are in. */
  CompletionStage<Void> store(long bufferId, int offset, byte[] bytes) {
    DeviceBuffer buffer = known(bufferId);
    Stream stream = transferStream(buffer.device());
    buffer.recordStream(stream);
    writeOn(stream, buffer, offset, bytes);
    return whenReached(stream, null);
  }

  void copy(Device device, long streamId, RemoteBuffer src, RemoteBuffer dst) {
    Stream stream = stream(device, streamId);
    try {
      new NodeCopy(this, ports, stream).copy(src, dst);
    } catch (RuntimeException misuse) {
      failOn(stream, "copy", misuse);
    }
  }

  /** The live interprocess event behind {@code handle}, as a local view. */
  Event openLocal(EventHandle handle) {
    return accelerator.openEvent(handle);
  }

  /** The buffer {@code bufferId}, marked as used on {@code stream}. */
  DeviceBuffer buffer(long bufferId, Stream stream) {
    DeviceBuffer buffer = known(bufferId);
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

  void writeOn(Stream stream, DeviceBuffer buffer, int offset, byte[] bytes) {
    stream.launch("write", context -> context.buffer(0).put(offset, bytes), buffer);
  }

  CompletionStage<byte[]> readOn(Stream stream, DeviceBuffer buffer, int offset, int length) {
    byte[] out = new byte[length];
    stream.launch("read", context -> context.buffer(0).get(offset, out), buffer);
    return whenReached(stream, out);
  }

  /**
   * Completes with {@code value} when {@code stream} reaches this point, exceptionally if covered
   * work failed; unlike a stream synchronization it leaves the failure report for the stream's
   * owner.
   */
  static <T> CompletionStage<T> whenReached(Stream stream, T value) {
    Event reached = stream.recordEvent();
    CompletableFuture<T> result = new CompletableFuture<>();
    reached
        .completion()
        .whenComplete(
            (ok, failure) -> {
              reached.close();
              if (failure == null) {
                result.complete(value);
              } else {
                result.completeExceptionally(Failures.unwrap(failure));
              }
            });
    return result;
  }

  private DeviceBuffer known(long bufferId) {
    DeviceBuffer buffer = buffers.get(bufferId);
    if (buffer == null) {
      throw new IllegalStateException(
          "buffer " + bufferId + " of node " + node + " is unknown or was freed");
    }
    return buffer;
  }

  private DeviceBuffer[] buffers(List<Long> ids, Stream stream) {
    DeviceBuffer[] used = new DeviceBuffer[ids.size()];
    for (int i = 0; i < used.length; i++) {
      used[i] = buffer(ids.get(i), stream);
    }
    return used;
  }

  private Stream transferStream(Device device) {
    return transferStreams.computeIfAbsent(device, d -> accelerator.newStream(d));
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
