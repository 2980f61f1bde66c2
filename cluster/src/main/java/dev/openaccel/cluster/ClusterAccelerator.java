package dev.openaccel.cluster;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventHandle;
import dev.openaccel.runtime.internal.AcceleratorCore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Extension;
import org.apache.pekko.actor.typed.ExtensionId;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.typed.Cluster;

/**
 * The devices of every node of a Pekko Cluster as one pool: discovery of the nodes and their
 * devices, streams and buffers on any node, and interprocess events that cross nodes. One per
 * {@link ActorSystem} (a Pekko extension, loaded with every actor system that has this module on
 * its class path), active only when {@code pekko.actor.provider = cluster}.
 *
 * <p>Each node runs a gateway actor registered with the Receptionist; this extension follows the
 * listing to know the other nodes and their devices, and registers itself with {@link
 * dev.openaccel.runtime.internal.AcceleratorCore#registerRemoteEvents} so that {@code
 * accelerator.openEvent(handle)} opens handles of other nodes. Membership, failure detection and
 * transport are Pekko Cluster's. All methods are thread-safe.
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
  private final Nodes nodes;
  private final ActorSystem<?> system;
  private final Duration timeout;

  private ClusterAccelerator(ActorSystem<?> system) {
    this.system = system;
    this.accelerator = Accelerator.get(system);
    this.self = system.address().toString();
    this.timeout = system.settings().config().getDuration("openaccel.cluster.control-timeout");
    String provider = system.settings().config().getString("pekko.actor.provider");
    if (!provider.equals("cluster")
        && !provider.equals("org.apache.pekko.cluster.ClusterActorRefProvider")) {
      this.nodes = null;
      return;
    }
    // Copies to or from another node need that node's port: looked up when the copy runs.
    LocalNode local = new LocalNode(accelerator, kernels, self, this::portOf);
    this.nodes = new Nodes(system, new LocalPort(local), local.devices(), timeout);
    ActorRef<GatewayProtocol.Command> gateway =
        system.systemActorOf(NodeGateway.create(local), NodeGateway.NAME, Props.empty());
    system.systemActorOf(Directory.create(nodes, gateway), "openaccel-directory", Props.empty());
    AcceleratorCore.get(accelerator.system()).registerRemoteEvents(this::openRemote);
  }

  /** The cluster accelerator of {@code system}. */
  public static ClusterAccelerator get(ActorSystem<?> system) {
    return Id.getInstance().apply(system);
  }

  /** Whether the actor system is a cluster node, so that this extension is active. */
  public boolean enabled() {
    return nodes != null;
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

  /** A new stream on {@code device}, priority 0. */
  public RemoteStream newStream(RemoteDevice device) {
    return newStream(device, 0);
  }

  /**
   * A new stream on {@code device}, created by its node.
   *
   * @throws IllegalArgumentException if the node has no such device
   * @throws dev.openaccel.runtime.DeviceExecutionException if the node has left or does not answer
   */
  public RemoteStream newStream(RemoteDevice device, int priority) {
    Objects.requireNonNull(device, "device");
    NodePort port = active().port(device.node());
    long id =
        Blocking.await(
            port.newStream(device.device(), priority),
            "ClusterAccelerator.newStream",
            "a thread of your own");
    return new RemoteStream(device, id, port);
  }

  /**
   * Allocates {@code bytes} of memory on {@code device}.
   *
   * @throws IllegalArgumentException if {@code bytes <= 0} or the node has no such device
   * @throws dev.openaccel.runtime.DeviceOutOfMemoryException if the device is full (on this node),
   *     or a {@link dev.openaccel.runtime.DeviceExecutionException} with its message (on another)
   */
  public RemoteBuffer allocate(RemoteDevice device, long bytes) {
    Objects.requireNonNull(device, "device");
    if (bytes <= 0) {
      throw new IllegalArgumentException("cannot allocate " + bytes + " bytes on " + device);
    }
    long id =
        Blocking.await(
            active().port(device.node()).allocate(device.device(), bytes),
            "ClusterAccelerator.allocate",
            "a thread of your own");
    return new RemoteBuffer(device.node(), device.device(), id, bytes);
  }

  /** Frees {@code buffer} on its node once the work that used it completes; idempotent. */
  public void free(RemoteBuffer buffer) {
    active().port(Objects.requireNonNull(buffer, "buffer").node()).free(buffer.bufferId());
  }

  /**
   * Closes, on its node, an interprocess event that {@link RemoteStream#recordEvent()} created: its
   * id is released once nothing waits for it any more. Opened views of it then fail to wait.
   */
  public void closeEvent(EventHandle handle) {
    active().port(Objects.requireNonNull(handle, "handle").node()).closeEvent(handle.eventId());
  }

  /** The event behind {@code handle}, of this node or another: {@code Accelerator.openEvent}. */
  public Event openEvent(EventHandle handle) {
    active();
    return accelerator.openEvent(handle);
  }

  /**
   * Opens an event of another node after asking it once (bounded by the control timeout) whether
   * the event exists, which also gives {@code query()} its first state.
   */
  private Event openRemote(EventHandle handle) {
    if (!isMember(handle.node())) {
      throw new IllegalArgumentException(
          "event handle from node "
              + handle.node()
              + ", which is not a member of this cluster (members: "
              + nodes.members().keySet()
              + ")");
    }
    RemoteEvent event = new RemoteEvent(accelerator, handle, nodes.port(handle.node()));
    event.check(timeout);
    return event;
  }

  private boolean isMember(String node) {
    if (nodes.members().containsKey(node)) {
      return true;
    }
    for (Member member : Cluster.get(system).state().getMembers()) {
      if (member.address().toString().equals(node)) {
        return true;
      }
    }
    return false;
  }

  private NodePort portOf(String node) {
    return nodes.port(node);
  }

  private Nodes active() {
    if (nodes == null) {
      throw new IllegalStateException(
          "OpenAccel's cluster support needs pekko.actor.provider = cluster (actor system "
              + self
              + ")");
    }
    return nodes;
  }

  @Override
  public String toString() {
    return "ClusterAccelerator(" + self + ", enabled=" + enabled() + ")";
  }
}
