package dev.openaccel.cluster;

import dev.openaccel.runtime.EventHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * A stream on a device of some node of the cluster, possibly this one. The stream lives on its
 * device's node; this object sends it work by name. Obtained from {@link
 * ClusterAccelerator#newStream}.
 *
 * <p>Ordering: operations called here take effect on the stream in call order for one caller (a
 * thread or an actor). They pass one ordering point per node pair (the link to the owner), so
 * callers on one node are ordered among themselves by when their calls reach it. Streams of the
 * local node are called directly, without messages.
 *
 * <p>Failures of the work (a kernel that throws, an unknown kernel name or buffer on the owner, a
 * failed wait) surface at the next {@link #synchronize}, as for a local stream. If the owner node
 * leaves the cluster, every pending and later wait fails with a {@link
 * dev.openaccel.runtime.DeviceExecutionException} naming it. A value: equal when node, device and
 * id are. Thread-safe.
 */
public final class RemoteStream {
  private final RemoteDevice device;
  private final long id;
  private final NodePort port;
  private final Waits waits;
  private final ActorSystem<?>
      system; // this node's: its synchronize is not made on its dispatchers

  RemoteStream(RemoteDevice device, long id, NodePort port, Waits waits, ActorSystem<?> system) {
    this.device = device;
    this.id = id;
    this.port = port;
    this.waits = waits;
    this.system = system;
  }

  /** The address of the node that owns the stream. */
  public String node() {
    return device.node();
  }

  /** The stream's device, with its node. */
  public RemoteDevice device() {
    return device;
  }

  /** The stream's id on its device, as the owning node numbers it. */
  public long id() {
    return id;
  }

  /**
   * Enqueues the kernel registered as {@code kernel} on the owner node, with {@code args} and views
   * of {@code buffers}.
   *
   * @throws IllegalArgumentException if a buffer is not on this stream's device
   */
  public void launch(String kernel, byte[] args, RemoteBuffer... buffers) {
    Objects.requireNonNull(kernel, "kernel");
    Objects.requireNonNull(args, "args");
    List<Long> ids = new ArrayList<>(buffers.length);
    for (RemoteBuffer buffer : buffers) {
      checkHere(buffer);
      ids.add(buffer.bufferId());
    }
    port.launch(device.device(), id, kernel, args.clone(), ids);
  }

  /**
   * Records a new interprocess event here and returns its handle once the owner has recorded it, so
   * that a wait sent anywhere afterwards sees this record.
   */
  public EventHandle recordEvent() {
    return Blocking.await(
        port.record(device.device(), id, 0), "RemoteStream.recordEvent()", "recordEventAsync()");
  }

  /**
   * Records again, here, an event that {@link #recordEvent()} created on this stream's node, and
   * returns once the owner has recorded it.
   *
   * @throws IllegalArgumentException if the event is of another node or device
   */
  public EventHandle recordEvent(EventHandle event) {
    return Blocking.await(
        recordEventAsync(event), "RemoteStream.recordEvent(handle)", "recordEventAsync(handle)");
  }

  /**
   * Like {@link #recordEvent()}; a wait sent to another node before the stage completes may see the
   * event's previous record.
   */
  public CompletionStage<EventHandle> recordEventAsync() {
    return port.record(device.device(), id, 0);
  }

  /** Like {@link #recordEvent(EventHandle)}, without waiting for the owner. */
  public CompletionStage<EventHandle> recordEventAsync(EventHandle event) {
    Objects.requireNonNull(event, "event");
    if (!event.node().equals(node()) || event.deviceIndex() != device.device().index()) {
      throw new IllegalArgumentException(
          "event "
              + event.eventId()
              + " belongs to "
              + event.node()
              + "/"
              + event.deviceType().name()
              + ":"
              + event.deviceIndex()
              + ", not to this stream's device "
              + device);
    }
    return port.record(device.device(), id, event.eventId());
  }

  /**
   * Work enqueued here afterwards waits for the record of the event behind {@code handle}, owned by
   * any node, that is current at its owner when this call returns: the owner fixes it first (one
   * round trip unless this node owns the event), so re-recording the event afterwards never changes
   * what this stream waits for.
   *
   * @throws IllegalArgumentException naming the node if the handle's node is not a member of the
   *     cluster, or if the owner has no such event; the stream's next synchronize fails too
   * @throws dev.openaccel.runtime.DeviceExecutionException if the owner left or did not answer
   *     within the control timeout
   */
  public void waitEvent(EventHandle handle) {
    Blocking.await(
        waitEventAsync(handle), "RemoteStream.waitEvent(handle)", "waitEventAsync(handle)");
  }

  /**
   * Like {@link #waitEvent}, without blocking: the wait takes its place in this stream's order at
   * the call; the stage completes when the owner has fixed the record it waits for.
   */
  public CompletionStage<Void> waitEventAsync(EventHandle handle) {
    Objects.requireNonNull(handle, "handle");
    return waits.streamWaits(port, device.device(), id, handle);
  }

  /**
   * Enqueues a copy of {@code src} into {@code dst}, a buffer of this stream's device. The bytes
   * are copied at the call; they travel on the bulk lane, under flow control.
   *
   * @throws IllegalArgumentException naming both sizes if they differ
   */
  public void write(byte[] src, RemoteBuffer dst) {
    Objects.requireNonNull(src, "src");
    checkHere(dst);
    checkSizes(src.length, dst.size());
    port.write(device.device(), id, dst.bufferId(), src.clone());
  }

  /** Enqueues a read of {@code src}, a buffer of this stream's device; the stage has its bytes. */
  public CompletionStage<byte[]> read(RemoteBuffer src) {
    checkHere(src);
    if (src.size() > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("buffer too large to read into one array: " + src);
    }
    byte[] out = new byte[(int) src.size()];
    List<CompletableFuture<Void>> parts = new ArrayList<>();
    for (int offset = 0; offset < out.length; offset += NodeCopy.CHUNK) {
      int at = offset;
      int length = Math.min(NodeCopy.CHUNK, out.length - offset);
      parts.add(
          port.read(device.device(), id, src.bufferId(), at, length)
              .thenAccept(bytes -> System.arraycopy(bytes, 0, out, at, length))
              .toCompletableFuture());
    }
    CompletableFuture<byte[]> result = new CompletableFuture<>();
    CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new))
        .whenComplete(
            (ok, failure) -> {
              if (failure == null) {
                result.complete(out);
              } else {
                result.completeExceptionally(Failures.unwrap(failure));
              }
            });
    return result;
  }

  /**
   * Enqueues a copy between buffers of the same size, on any devices of this stream's node, or
   * between this node and another one. Ordered on this stream only: the other node serves its side
   * on a transfer stream of its own, so order its other work against the copy with events.
   *
   * @throws IllegalArgumentException naming both sizes if they differ, or if neither buffer is on
   *     this stream's node
   */
  public void copy(RemoteBuffer src, RemoteBuffer dst) {
    Objects.requireNonNull(src, "src");
    Objects.requireNonNull(dst, "dst");
    checkSizes(src.size(), dst.size());
    if (!src.node().equals(node()) && !dst.node().equals(node())) {
      throw new IllegalArgumentException(
          "a copy runs on a stream of the source's or the destination's node; "
              + node()
              + " is neither "
              + src.node()
              + " nor "
              + dst.node());
    }
    port.copy(device.device(), id, src, dst);
  }

  /** Blocks until the work enqueued so far has completed; throws its failure. */
  public void synchronize() {
    Blocking.await(system, synchronizeAsync(), "RemoteStream.synchronize()", "synchronizeAsync()");
  }

  /** Like {@link #synchronize()}, false if {@code timeout} passes first. */
  public boolean synchronize(Duration timeout) {
    return Blocking.await(
        system,
        synchronizeAsync(),
        timeout,
        "RemoteStream.synchronize(timeout)",
        "synchronizeAsync()");
  }

  /** Completes when the work enqueued so far has completed, exceptionally with its failure. */
  public CompletionStage<Void> synchronizeAsync() {
    return port.synchronize(device.device(), id);
  }

  private void checkHere(RemoteBuffer buffer) {
    Objects.requireNonNull(buffer, "buffer");
    if (!buffer.remoteDevice().equals(device)) {
      throw new IllegalArgumentException(
          buffer + " is not on this stream's device " + device + "; copy it there first");
    }
  }

  private static void checkSizes(long src, long dst) {
    if (src != dst) {
      throw new IllegalArgumentException(
          "copy size mismatch: source has " + src + " bytes, destination " + dst);
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RemoteStream other && id == other.id && device.equals(other.device);
  }

  @Override
  public int hashCode() {
    return device.hashCode() * 31 + Long.hashCode(id);
  }

  @Override
  public String toString() {
    return "RemoteStream(" + device + ", stream_id=" + id + ")";
  }
}
