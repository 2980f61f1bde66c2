package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.spi.DeviceExecutor;
import dev.openaccel.runtime.spi.DeviceWork;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What every replay of a graph enqueues, in order, made once with the graph: its nodes in capture
 * order, with each run of nodes that follow each other on a lane merged where it can be. A run of
 * Java kernels becomes one {@link WorkItem.Segment}; a run of device work becomes, where the
 * backend fuses it ({@link DeviceExecutor#fuse}), one node whose template does the run's work (an
 * OpenCL command buffer), and stays one enqueue per node elsewhere. A run is placed where its first
 * node was: its nodes depend on nothing but the node before them on their lane. Internal;
 * immutable.
 *
 * @param items what a replay enqueues, in order: nodes, segments or fused device work
 * @param deviceWork how a replay runs the graph's device nodes, for its description and the log;
 *     empty if it has none
 */
record GraphPlan(List<CapturedNode> items, String deviceWork) {

  /** The plan of {@code nodes} of {@code graph}, whose device work {@code executor} may fuse. */
  static GraphPlan of(List<CapturedNode> nodes, String graph, DeviceExecutor executor) {
    List<CapturedNode> items = new ArrayList<>();
    List<String> fused = new ArrayList<>();
    int single = 0;
    for (List<CapturedNode> run : runs(nodes)) {
      CapturedNode first = run.get(0);
      if (run.size() == 1) {
        items.add(first);
        single += first.work() instanceof CapturedNode.Device ? 1 : 0;
      } else if (first.work() instanceof CapturedNode.Run) {
        items.add(segment(run, graph));
      } else {
        single += fuse(run, executor, items, fused);
      }
    }
    List<String> parts = new ArrayList<>(fused);
    if (single > 0) {
      parts.add(single + " device node" + (single == 1 ? "" : "s") + " as per-node enqueues");
    }
    return new GraphPlan(List.copyOf(items), String.join("; ", parts));
  }

  /**
   * The nodes grouped, in the order of each group's first node: a run of Java kernels, or of device
   * work, that follow each other on a lane; every other node alone.
   */
  private static List<List<CapturedNode>> runs(List<CapturedNode> nodes) {
    Map<Integer, List<CapturedNode>> groups = new LinkedHashMap<>(); // by the first node's index
    Map<Integer, List<CapturedNode>> open = new LinkedHashMap<>(); // lane -> its open run
    for (CapturedNode node : nodes) {
      int lane = node.node().lane();
      List<CapturedNode> run = open.get(lane);
      if (run != null && sameKind(run.get(0), node)) {
        run.add(node);
        continue;
      }
      run = new ArrayList<>(List.of(node));
      groups.put(node.node().index(), run);
      if (node.work() instanceof CapturedNode.Run || node.work() instanceof CapturedNode.Device) {
        open.put(lane, run);
      } else {
        open.remove(lane);
      }
    }
    return List.copyOf(groups.values());
  }

  private static boolean sameKind(CapturedNode a, CapturedNode b) {
    return a.work() instanceof CapturedNode.Run && b.work() instanceof CapturedNode.Run
        || a.work() instanceof CapturedNode.Device && b.work() instanceof CapturedNode.Device;
  }

  private static CapturedNode segment(List<CapturedNode> run, String graph) {
    CapturedNode first = run.get(0);
    String name = graph + " lane " + first.node().lane() + " from node " + first.node().index();
    WorkItem.HostWork[] kernels =
        run.stream()
            .map(node -> ((CapturedNode.Run) node.work()).item())
            .toArray(size -> new WorkItem.HostWork[size]);
    return new CapturedNode(
        first.node(), new CapturedNode.Run(new WorkItem.Segment(name, kernels)), List.of());
  }

  /**
   * Adds {@code run}'s device nodes to {@code items}, each part the backend fuses as one node (and
   * its description to {@code fused}), the others as they are; returns how many stay single.
   */
  private static int fuse(
      List<CapturedNode> run,
      DeviceExecutor executor,
      List<CapturedNode> items,
      List<String> fused) {
    int single = 0;
    for (int at = 0; at < run.size(); ) {
      List<CapturedNode> rest = run.subList(at, run.size());
      DeviceExecutor.Fusion fusion =
          rest.size() < 2
              ? null
              : executor.fuse(
                  rest.get(0).node().device(), rest.stream().map(GraphPlan::work).toList());
      if (fusion == null) {
        items.add(rest.get(0));
        single++;
        at++;
        continue;
      }
      if (fusion.count() > rest.size()) {
        throw new IllegalStateException(
            executor + " fused " + fusion.count() + " works of " + rest.size() + " given");
      }
      List<CapturedNode> part = rest.subList(0, fusion.count());
      items.add(fused(part, fusion));
      fused.add(nodesOf(part) + " as " + fusion.how());
      at += fusion.count();
    }
    return single;
  }

  private static DeviceWork work(CapturedNode node) {
    return ((CapturedNode.Device) node.work()).template().work();
  }

  private static CapturedNode fused(List<CapturedNode> part, DeviceExecutor.Fusion fusion) {
    boolean readsHeap = false;
    boolean writesHeap = false;
    for (CapturedNode node : part) {
      WorkItem.DeviceCommand template = ((CapturedNode.Device) node.work()).template();
      readsHeap |= template.readsHeap();
      writesHeap |= template.writesHeap();
    }
    String name =
        listed(part.stream().map(node -> node.node().name()).toList()) + " as " + fusion.how();
    WorkItem.DeviceCommand command =
        new WorkItem.DeviceCommand(name, fusion.work(), readsHeap, writesHeap);
    return new CapturedNode(part.get(0).node(), new CapturedNode.Device(command), List.of());
  }

  private static String nodesOf(List<CapturedNode> part) {
    return "nodes "
        + listed(part.stream().map(node -> String.valueOf(node.node().index())).toList())
        + " (lane "
        + part.get(0).node().lane()
        + ")";
  }

  /** Up to four items joined by commas; more as the first two, the count and the last. */
  private static String listed(List<String> items) {
    if (items.size() <= 4) {
      return String.join(", ", items);
    }
    return items.get(0)
        + ", "
        + items.get(1)
        + ", ... ("
        + items.size()
        + " in all), "
        + items.get(items.size() - 1);
  }
}
