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
import java.util.function.Function;

/**
 * What this node offers the cluster: its streams, the buffers and interprocess events created
 * through the cluster API ({@link Resources}), the pinned event records waits of other nodes
 * captured ({@link Pins}), and its kernel registry. Both the local short-cut ({@link LocalPort})
 * and the {@link NodeGateway} serving other nodes call it; {@code requester} is the node that asks.
 * Internal.
 *
 * <p>Owns: one transfer stream per device, for copies other nodes drive. Thread-safe: every method
 * only enqueues on streams or reads concurrent maps.
 */
final class LocalNode {
  private final Accelerator accelerator;
  private final KernelRegistry kernels;
  private final String node;
  private final Function<String, NodePort> ports;
  private final Inbox inbox;
  private final Resources resources;
  private final Pins pins = new Pins();
  private final Map<Device, Stream> transferStreams = new ConcurrentHashMap<>();

  LocalNode(
      Accelerator accelerator,
      KernelRegistry kernels,
      String node,
      Function<String, NodePort> ports,
      Inbox inbox) {
    this.accelerator = accelerator;
    this.kernels = kernels;
    this.node = node;
    this.ports = ports;
    this.inbox = inbox;
    this.resources = new Resources(node);
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
      blockOn(stream, Failures.naming(pinned, event));
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
    DeviceBuffer buffer =
        AcceleratorCore.get(accelerator.system())
            .router(device.type())
            .allocate(accelerator.defaultStream(device), bytes);
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

  /**
   * Writes, in stream order, the bytes of bulk transfer {@code transferId} of node {@code from}.
   */
  void writeFrom(
      String from, Device device, long streamId, long bufferId, long transferId, int length) {
    Stream stream = stream(device, streamId);
    DeviceBuffer buffer;
    try {
      buffer = buffer(bufferId, stream);
    } catch (RuntimeException misuse) {
      failOn(stream, "write", misuse);
      return;
    }
    copyIn(stream, buffer, from, transferId, length);
  }

  CompletionStage<byte[]> read(
      Device device, long streamId, long bufferId, int offset, int length) {
    Stream stream = stream(device, streamId);
    return readOn(stream, buffer(bufferId, stream), offset, length);
  }

  /** Reads on the buffer's transfer stream: ordered only by the events the requester waited on. */
  CompletionStage<byte[]> fetch(long bufferId, int offset, int length) {
    DeviceBuffer buffer = resources.buffer(bufferId);
    Stream stream = transferStream(buffer.device());
    buffer.recordStream(stream);
    return readOn(stream, buffer, offset, length);
  }

  /** Writes bulk transfer {@code transferId} of {@code from} on the buffer's transfer stream. */
  CompletionStage<Void> storeFrom(String from, long bufferId, long transferId, int length) {
    DeviceBuffer buffer = resources.buffer(bufferId);
    Stream stream = transferStream(buffer.device());
    buffer.recordStream(stream);
    copyIn(stream, buffer, from, transferId, length);
    return whenReached(stream, null);
  }

  /** Writes {@code bytes}, when they come, into the buffer on its transfer stream. */
  CompletionStage<Void> storeLocal(long bufferId, CompletableFuture<byte[]> bytes) {
    DeviceBuffer buffer = resources.buffer(bufferId);
    Stream stream = transferStream(buffer.device());
    buffer.recordStream(stream);
    copyIn(stream, buffer, 0, bytes);
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

  /**
   * Writes the chunks of a bulk transfer into {@code buffer} in stream order: the stream waits for
   * each chunk, then puts it. A lost chunk fails the wait, so the stream's next sync reports it.
   */
  void copyIn(Stream stream, DeviceBuffer buffer, String from, long transferId, long length) {
    for (long offset = 0; offset < length; offset += NodeCopy.CHUNK) {
      CompletableFuture<byte[]> chunk = inbox.expect(new Inbox.Key(from, transferId, offset), true);
      copyIn(stream, buffer, offset, chunk);
    }
  }

  /** The stream waits for {@code chunk}, then puts it at {@code offset} of {@code buffer}. */
  void copyIn(Stream stream, DeviceBuffer buffer, long offset, CompletableFuture<byte[]> chunk) {
    blockOn(stream, chunk);
    stream.launch(
        "copy-in",
        context -> {
          // A failed chunk already failed the wait above, which reports it downstream.
          if (!chunk.isCompletedExceptionally()) {
            context.buffer(0).put((int) offset, chunk.join());
          }
        },
        buffer);
  }

  void blockOn(Stream stream, CompletionStage<?> signal) {
    AcceleratorCore.get(accelerator.system()).router(stream.deviceType()).blockOn(stream, signal);
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
