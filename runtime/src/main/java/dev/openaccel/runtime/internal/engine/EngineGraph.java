package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Graph;
import dev.openaccel.runtime.GraphNode;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.DeviceWork;
import dev.openaccel.runtime.trace.TraceEvent;
import dev.openaccel.runtime.trace.Tracer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A graph of the engine: the nodes of an ended {@link Capture}, replayed by enqueueing each node's
 * work in capture order (a topological order) on the lanes' streams, as its {@link GraphPlan} says.
 * Java kernels and copies of engine memory that follow each other on a lane are one {@link
 * WorkItem.Segment}, made once and enqueued as one item by every replay, so a replay allocates
 * nothing for them; device work is a replica of the captured work, or of the work a backend fused a
 * lane's run of it into (logged once per graph, at INFO, and shown by {@link #description()});
 * records and waits are new for each replay, so replays never wait for each other's records. Every
 * replay of the engine enqueues under one monitor ({@link EngineDevices#replayOrder}), so replays
 * sharing pooled streams meet in the same order on each. Internal; immutable and thread-safe.
 */
final class EngineGraph implements Graph {
  private static final int PICKS = 256; // pooled streams tried for a lane before giving up
  private static final Logger LOG = LoggerFactory.getLogger(EngineGraph.class);

  private final ActorEngine engine;
  private final List<StreamQueue> captured;
  private final List<CapturedNode> nodes;
  private final GraphPlan plan;
  private final List<Buffer> buffers;
  private final long id;
  private final AtomicLong replays = new AtomicLong();

  EngineGraph(ActorEngine engine, List<StreamQueue> captured, List<CapturedNode> nodes) {
    this.engine = engine;
    this.captured = captured;
    this.nodes = nodes;
    this.buffers = nodes.stream().flatMap(node -> node.buffers().stream()).distinct().toList();
    this.id = engine.devices().nextGraphId();
    this.plan = GraphPlan.of(nodes, toString(), engine.spec().executor());
    if (!plan.deviceWork().isEmpty()) {
      LOG.info("{} replays its device work: {}", this, plan.deviceWork());
    }
  }

  @Override
  public CompletionStage<Void> launch(Stream stream) {
    StreamQueue target = engine.handleOf(Objects.requireNonNull(stream, "stream"));
    Device device = captured.get(0).stream().device();
    if (!stream.device().equals(device)) {
      throw new IllegalArgumentException(
          this + " runs its lane 0 on " + device + ", cannot launch it on " + stream);
    }
    target.checkNotCapturing("launching " + this);
    for (Buffer buffer : buffers) {
      if (buffer.isClosed()) {
        throw new IllegalStateException(
            this + " uses " + buffer + ", which was closed: it cannot be launched");
      }
    }
    DeviceWork[] replicas = replicas(); // all made before anything is enqueued, or none
    long replay = replays.incrementAndGet();
    Generation done = Generation.unnamed("replay " + replay + " of " + this);
    long launchedAt =
        System.nanoTime(); // before its first kernel can start; published once enqueued
    synchronized (engine.devices().replayOrder()) {
      StreamQueue[] lanes;
      try {
        lanes = lanes(target);
      } catch (RuntimeException e) {
        discard(replicas);
        throw e;
      }
      Generation[] records = new Generation[nodes.size()];
      List<CapturedNode> items = plan.items();
      for (int i = 0; i < items.size(); i++) {
        enqueue(items.get(i), replicas[i], lanes, records);
      }
      target.enqueue(done);
    }
    CompletionStage<Void> ended = done.toStage();
    Tracer tracer = engine.tracer();
    if (tracer.enabled()) {
      tracer.publish(new TraceEvent.GraphLaunched(device, stream.id(), id, replay, launchedAt));
      ended.whenComplete(
          (ok, failure) ->
              tracer.publish(
                  new TraceEvent.GraphReplayed(
                      device, stream.id(), id, replay, failure != null, System.nanoTime())));
    }
    return ended;
  }

  /**
   * A replica of the template of each device item of the plan, by its place (null for the others).
   *
   * @throws UnsupportedOperationException if a template cannot be replayed (those made discarded)
   */
  private DeviceWork[] replicas() {
    List<CapturedNode> items = plan.items();
    DeviceWork[] replicas = new DeviceWork[items.size()];
    try {
      for (int i = 0; i < replicas.length; i++) {
        if (items.get(i).work() instanceof CapturedNode.Device device) {
          replicas[i] = device.template().work().replica();
          if (replicas[i] == null) {
            throw new UnsupportedOperationException(
                describe(items.get(i)) + " '" + device.template().name() + "' cannot be replayed");
          }
        }
      }
    } catch (RuntimeException e) {
      discard(replicas);
      throw e;
    }
    return replicas;
  }

  private static void discard(DeviceWork[] replicas) {
    for (DeviceWork replica : replicas) {
      if (replica != null) {
        replica.discard();
      }
    }
  }

  private void enqueue(
      CapturedNode node, DeviceWork replica, StreamQueue[] lanes, Generation[] records) {
    StreamQueue lane = lanes[node.node().lane()];
    CapturedNode.Work work = node.work();
    if (work instanceof CapturedNode.Run run) {
      lane.enqueue(run.item());
    } else if (work instanceof CapturedNode.Device device) {
      WorkItem.DeviceCommand template = device.template();
      lane.enqueue(
          new WorkItem.DeviceCommand(
              template.name(), replica, template.readsHeap(), template.writesHeap()));
    } else if (work instanceof CapturedNode.Record record) {
      records[node.node().index()] = record.event().replayRecord(lane);
    } else if (work instanceof CapturedNode.Wait wait) {
      lane.enqueue(new WorkItem.Wait(records[wait.record()]));
    } else {
      Generation mark = Generation.unnamed(node.node().name() + " in a replay of " + this);
      lane.enqueue(mark);
      records[node.node().index()] = mark;
    }
  }

  /** Lane 0 on {@code target}; each other lane on a pooled stream of its device, all distinct. */
  private StreamQueue[] lanes(StreamQueue target) {
    StreamQueue[] lanes = new StreamQueue[captured.size()];
    lanes[0] = target;
    for (int lane = 1; lane < lanes.length; lane++) {
      Device device = captured.get(lane).stream().device();
      StreamRegistry pool = engine.devices().registry(device.index());
      for (int tries = 0; lanes[lane] == null && tries < PICKS; tries++) {
        StreamQueue candidate = pool.fromPool(false);
        if (candidate.capture() == null && !Arrays.asList(lanes).contains(candidate)) {
          lanes[lane] = candidate;
        }
      }
      if (lanes[lane] == null) {
        throw new IllegalStateException(
            this + " needs " + lanes.length + " streams; the pool of " + device + " has too few");
      }
    }
    return lanes;
  }

  @Override
  public Graph withBuffers(int node, DeviceBuffer... buffers) {
    CapturedNode old = node(node);
    if (old.work() instanceof CapturedNode.Run run
        && run.item() instanceof WorkItem.HostKernel kernel
        && kernel.body() instanceof CapturedKernel captured) {
      CapturedKernel over = captured.over(engine, describe(old), buffers);
      List<Buffer> used = new ArrayList<>();
      for (DeviceBuffer buffer : buffers) {
        used.add(engine.bufferOf(buffer));
      }
      return with(
          node,
          new CapturedNode(
              old.node(),
              new CapturedNode.Run(new WorkItem.HostKernel(kernel.name(), over, null)),
              List.copyOf(used)));
    }
    throw new IllegalArgumentException(describe(old) + " is not a Java kernel over buffers");
  }

  @Override
  public Graph withArguments(int node, Object... arguments) {
    CapturedNode old = node(node);
    if (!(old.work() instanceof CapturedNode.Device device)
        || old.node().kind() != GraphNode.Kind.KERNEL) { // a device copy is no kernel
      throw new IllegalArgumentException(describe(old) + " is not a device kernel");
    }
    WorkItem.DeviceCommand template = device.template();
    DeviceWork updated =
        template.work().withArguments(Objects.requireNonNull(arguments, "arguments"));
    return with(
        node,
        new CapturedNode(
            old.node(),
            new CapturedNode.Device(
                new WorkItem.DeviceCommand(
                    template.name(), updated, template.readsHeap(), template.writesHeap())),
            old.buffers()));
  }

  private CapturedNode node(int index) {
    if (index < 0 || index >= nodes.size()) {
      throw new IllegalArgumentException(
          this + " has nodes 0 to " + (nodes.size() - 1) + ", got node " + index);
    }
    return nodes.get(index);
  }

  private String describe(CapturedNode node) {
    return "node " + node.node().index() + " '" + node.node().name() + "' of " + this;
  }

  private Graph with(int index, CapturedNode replaced) {
    List<CapturedNode> changed = new ArrayList<>(nodes);
    changed.set(index, replaced);
    return new EngineGraph(engine, captured, List.copyOf(changed));
  }

  @Override
  public List<GraphNode> nodes() {
    return nodes.stream().map(CapturedNode::node).toList();
  }

  @Override
  public String description() {
    Map<GraphNode.Kind, Integer> kinds = new EnumMap<>(GraphNode.Kind.class);
    nodes.forEach(node -> kinds.merge(node.node().kind(), 1, Integer::sum));
    StringBuilder text =
        new StringBuilder(this + " on the engine: " + captured.size() + " lanes, ");
    text.append(nodes.size()).append(" nodes");
    kinds.forEach(
        (kind, count) -> text.append(", ").append(count).append(' ').append(plural(kind, count)));
    text.append("; a replay enqueues ").append(plan.items().size()).append(" items");
    return plan.deviceWork().isEmpty()
        ? text.toString()
        : text.append("; device work: ").append(plan.deviceWork()).toString();
  }

  private static String plural(GraphNode.Kind kind, int count) {
    String word = kind.name().toLowerCase(Locale.ROOT);
    if (count == 1) {
      return word;
    }
    return word.endsWith("y") ? word.substring(0, word.length() - 1) + "ies" : word + "s";
  }

  @Override
  public String toDot() {
    StringBuilder dot = new StringBuilder("digraph \"" + this + "\" {\n");
    for (CapturedNode captured : nodes) {
      GraphNode node = captured.node();
      dot.append("  n")
          .append(node.index())
          .append(" [label=\"")
          .append(node.index())
          .append(": ")
          .append(node.kind().name().toLowerCase(Locale.ROOT))
          .append(' ')
          .append(node.name().replace("\\", "\\\\").replace("\"", "\\\""))
          .append(" (lane ")
          .append(node.lane())
          .append(")\"];\n");
      for (int dependency : node.dependencies()) {
        dot.append("  n").append(dependency).append(" -> n").append(node.index()).append(";\n");
      }
    }
    return dot.append("}\n").toString();
  }

  @Override
  public String toString() {
    return "graph " + id;
  }
}
