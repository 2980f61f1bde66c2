package dev.openaccel.cluster;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Extension;
import org.apache.pekko.actor.typed.ExtensionId;

/**
 * The devices of every node of a Pekko Cluster as one pool: discovery of the nodes and their
 * devices, streams and buffers on any node, and interprocess events that cross nodes. One per
 * {@link ActorSystem} (a Pekko extension, loaded with every actor system that has this module on
 * its class path), active only when {@code pekko.actor.provider = cluster}.
 *
 * <p>Each node runs a gateway actor registered with the Receptionist; this extension follows the
 * listing to know the other nodes and their devices, and registers its remote events with the
 * runtime's one extension point for distribution modules ({@link
 * dev.openaccel.runtime.spi.RemoteEvents#register}) so that {@code accelerator.openEvent(handle)}
 * opens handles of other nodes. Membership, failure detection and transport are Pekko Cluster's.
 * All methods are thread-safe.
 */
public final class ClusterAccelerator implements Extension {

  /** The extension id, listed in {@code pekko.actor.typed.library-extensions}. */
  public static final class Id extends ExtensionId<ClusterAccelerator> {
    private static final Id INSTANCE = new Id();

    private Id() {}

    /** The singleton, for Pekko's extension loader. */
    public static Id getInstance() {
      return INSTANCE;
    }

    @Override
    public ClusterAccelerator createExtension(ActorSystem<?> system) {
      return new ClusterAccelerator(system);
    }
  }

  private final Accelerator accelerator;
  private final String self;
  private final KernelRegistry kernels = new KernelRegistry();
  private final ClusterNode node; // null outside a cluster

  private ClusterAccelerator(ActorSystem<?> system) {
    this.accelerator = Accelerator.get(system);
    this.self = system.address().toString();
    ClusterSettings settings = ClusterSettings.from(system.settings().config());
    CollectiveSettings collectives = CollectiveSettings.from(system.settings().config());
    String provider = system.settings().config().getString("pekko.actor.provider");
    this.node =
        ClusterNode.isClusterProvider(provider)
            ? new ClusterNode(system, accelerator, kernels, self, settings, collectives)
            : null;
  }

  /** The cluster accelerator of {@code system}. */
  public static ClusterAccelerator get(ActorSystem<?> system) {
    return Id.getInstance().apply(system);
  }

  /** This node's end of the bulk lanes; null outside a cluster. Internal, for tests. */
  Bulk bulk() {
    return node == null ? null : node.bulk();
  }

  /** Whether the actor system is a cluster node, so that this extension is active. */
  public boolean enabled() {
    return node != null;
  }

  /** This node's own accelerator. */
  public Accelerator accelerator() {
    return accelerator;
  }

  /**
   * This node's address, as {@link RemoteDevice#node()} and {@link EventHandle#node()} write it.
   */
  public String selfNode() {
    return self;
  }

  /** The kernels this node runs for launches by name. */
  public KernelRegistry kernels() {
    return kernels;
  }

  /** This node's process groups: collectives over devices of several nodes. */
  public Collectives collectives() {
    active();
    return node.collectives();
  }

  /** The nodes known with their devices, this one included, sorted. */
  public SortedSet<String> nodes() {
    return new TreeSet<>(active().members().keySet());
  }

  /** Every device of every known node, by node then device. */
  public List<RemoteDevice> devices() {
    List<RemoteDevice> all = new ArrayList<>();
    for (Map.Entry<String, List<Device>> node : active().members().entrySet()) {
      for (Device device : node.getValue()) {
        all.add(new RemoteDevice(node.getKey(), device));
      }
    }
    return all;
  }

  /**
   * Waits until at least {@code count} nodes (this one included) are known with their devices.
   *
   * @return false if {@code timeout} passed first
   */
  public boolean awaitNodes(int count, Duration timeout) {
    try {
      return active().awaitMembers(count, timeout);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for " + count + " nodes", e);
    }
  }

  /** This node's own devices, as the other nodes name them. */
  public List<RemoteDevice> localDevices() {
    List<RemoteDevice> mine = new ArrayList<>();
    for (Device device : active().members().getOrDefault(self, List.of())) {
      mine.add(new RemoteDevice(self, device));
    }
    return mine;
  }

  /** A new stream on {@code device}, priority 0. */
  public RemoteStream newStream(RemoteDevice device) {
    return newStream(device, 0);
  }

  /**
   * A new stream on {@code device}, created by its node.
   *
   * @throws IllegalArgumentException if the node has no such device or is not a member
   * @throws dev.openaccel.runtime.DeviceExecutionException if the node has left or does not answer
   */
  public RemoteStream newStream(RemoteDevice device, int priority) {
    return Blocking.await(
        newStreamAsync(device, priority),
        "ClusterAccelerator.newStream",
        "ClusterAccelerator.newStreamAsync");
  }

  /** Like {@link #newStream(RemoteDevice)}, without blocking. */
  public CompletionStage<RemoteStream> newStreamAsync(RemoteDevice device) {
    return newStreamAsync(device, 0);
  }

  /** Like {@link #newStream(RemoteDevice, int)}, without blocking; the stage fails instead. */
  public CompletionStage<RemoteStream> newStreamAsync(RemoteDevice device, int priority) {
    Objects.requireNonNull(device, "device");
    return Failures.guard(
        () -> {
          NodePort port = active().port(device.node());
          return port.newStream(device.device(), priority)
              .thenApply(
                  id -> new RemoteStream(device, id, port, node.waits(), accelerator.system()));
        });
  }

  /**
   * Allocates {@code bytes} of memory on {@code device}, owned by this node: only this node frees
   * it, and it is freed when this node leaves the cluster.
   *
   * @throws IllegalArgumentException if {@code bytes <= 0}, or the node has no such device or is
   *     not a member
   * @throws dev.openaccel.runtime.DeviceOutOfMemoryException if the device is full (on this node),
   *     or a {@link dev.openaccel.runtime.DeviceExecutionException} with its message (on another)
   */
  public RemoteBuffer allocate(RemoteDevice device, long bytes) {
    return Blocking.await(
        allocateAsync(device, bytes),
        "ClusterAccelerator.allocate",
        "ClusterAccelerator.allocateAsync");
  }

  /** Like {@link #allocate}, without blocking; the stage fails instead. */
  public CompletionStage<RemoteBuffer> allocateAsync(RemoteDevice device, long bytes) {
    Objects.requireNonNull(device, "device");
    if (bytes <= 0) {
      throw new IllegalArgumentException("cannot allocate " + bytes + " bytes on " + device);
    }
    return Failures.guard(
        () ->
            active()
                .port(device.node())
                .allocate(device.device(), bytes)
                .thenApply(id -> new RemoteBuffer(device.node(), device.device(), id, bytes)));
  }

  /**
   * Frees {@code buffer} on its node once the work that used it completes; idempotent.
   *
   * @throws IllegalStateException naming both nodes if this node did not allocate it
   */
  public void free(RemoteBuffer buffer) {
    Blocking.await(freeAsync(buffer), "ClusterAccelerator.free", "ClusterAccelerator.freeAsync");
  }

  /** Like {@link #free}, without blocking; the stage fails instead. */
  public CompletionStage<Void> freeAsync(RemoteBuffer buffer) {
    Objects.requireNonNull(buffer, "buffer");
    return Failures.guard(() -> active().port(buffer.node()).free(buffer.bufferId()));
  }

  /**
   * Closes, on its node, an interprocess event that {@link RemoteStream#recordEvent()} created for
   * this node: its id is released once nothing waits for it any more. Opened views of it then fail
   * to wait. Close every event you record, or it lives until this node leaves the cluster.
   *
   * @throws IllegalStateException naming both nodes if another node created it
   */
  public void closeEvent(EventHandle handle) {
    Blocking.await(
        closeEventAsync(handle),
        "ClusterAccelerator.closeEvent",
        "ClusterAccelerator.closeEventAsync");
  }

  /** Like {@link #closeEvent}, without blocking; the stage fails instead. */
  public CompletionStage<Void> closeEventAsync(EventHandle handle) {
    Objects.requireNonNull(handle, "handle");
    return Failures.guard(() -> active().port(handle.node()).closeEvent(handle.eventId()));
  }

  /** The event behind {@code handle}, of this node or another: {@code Accelerator.openEvent}. */
  public Event openEvent(EventHandle handle) {
    active();
    return accelerator.openEvent(handle);
  }

  /**
   * Like {@link #openEvent}, without blocking: for an event of another node, the stage completes
   * once that node has confirmed the event exists.
   */
  public CompletionStage<Event> openEventAsync(EventHandle handle) {
    Objects.requireNonNull(handle, "handle");
    active();
    if (handle.node().equals(self)) {
      return Failures.guard(() -> CompletableFuture.completedStage(accelerator.openEvent(handle)));
    }
    return Failures.guard(() -> node.remoteEvents().openAsync(handle));
  }

  /** Live buffers, events and pins this node holds for the cluster, for tests. */
  int liveResources() {
    return node.local().liveResources();
  }

  private Nodes active() {
    if (node == null) {
      throw new IllegalStateException(
          "OpenAccel's cluster support needs pekko.actor.provider = cluster (actor system "
              + self
              + ")");
    }
    return node.nodes();
  }

  @Override
  public String toString() {
    return "ClusterAccelerator(" + self + ", enabled=" + enabled() + ")";
  }
}
