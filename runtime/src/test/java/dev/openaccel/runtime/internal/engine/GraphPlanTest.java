package dev.openaccel.runtime.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.GraphNode;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.DeviceExecutor;
import dev.openaccel.runtime.spi.DeviceQueue;
import dev.openaccel.runtime.spi.DeviceWork;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a graph's replay enqueues ({@link GraphPlan}): each lane's run of Java kernels as one
 * segment, each run of device work the executor fuses as one node placed where its first node was,
 * device work it does not fuse node by node, and a description of which is which.
 */
class GraphPlanTest {
  private static final Device DEVICE = Device.of(DeviceType.of("test"), 0);

  /** Device work that the test executor fuses when {@code fusible}. */
  private record Work(String name, boolean fusible) implements DeviceWork {}

  /** Fuses the longest prefix of fusible works, as a backend with command buffers would. */
  private record Fused(List<DeviceWork> works) implements DeviceWork {}

  private static final DeviceExecutor FUSING =
      new DeviceExecutor() {
        @Override
        public DeviceQueue open(Stream stream) {
          return null;
        }

        @Override
        public Fusion fuse(Device device, List<DeviceWork> templates) {
          int count = 0;
          while (count < templates.size() && ((Work) templates.get(count)).fusible()) {
            count++;
          }
          return count < 2
              ? null
              : new Fusion(new Fused(templates.subList(0, count)), count, "one test batch");
        }
      };

  private final List<CapturedNode> nodes = new ArrayList<>();

  private void device(int lane, String name, boolean fusible, boolean readsHeap) {
    DeviceWork work = new Work(name, fusible);
    add(
        lane,
        GraphNode.Kind.KERNEL,
        name,
        new CapturedNode.Device(new WorkItem.DeviceCommand(name, work, readsHeap, false)));
  }

  private void java(int lane, String name) {
    add(
        lane,
        GraphNode.Kind.KERNEL,
        name,
        new CapturedNode.Run(new WorkItem.Launch(name, () -> {})));
  }

  private void add(int lane, GraphNode.Kind kind, String name, CapturedNode.Work work) {
    GraphNode node = new GraphNode(nodes.size(), kind, name, lane, DEVICE, List.of());
    nodes.add(new CapturedNode(node, work, List.of()));
  }

  @Test
  void eachRunTheExecutorFusesIsOneNodeWhereItsFirstNodeWas() {
    device(0, "a", true, false);
    device(1, "b", true, false); // another lane's node between lane 0's
    device(0, "c", true, true);
    add(0, GraphNode.Kind.RECORD, "end", CapturedNode.MARK);
    device(0, "d", false, false);
    device(0, "e", true, false);
    device(0, "f", true, false);
    device(0, "g", true, false);

    GraphPlan plan = GraphPlan.of(List.copyOf(nodes), "graph 1", FUSING);

    List<CapturedNode> items = plan.items();
    assertEquals(5, items.size(), String.valueOf(items));
    WorkItem.DeviceCommand first = ((CapturedNode.Device) items.get(0).work()).template();
    assertEquals(List.of("a", "c"), names(first));
    assertEquals("a, c as one test batch", first.name());
    assertTrue(first.readsHeap(), "a fused run reads heap memory if one of its works does");
    assertSame(nodes.get(1), items.get(1), "lane 1's single node, left as it was");
    assertSame(nodes.get(3), items.get(2));
    assertSame(nodes.get(4), items.get(3), "d is not fused");
    assertEquals(
        List.of("e", "f", "g"), names(((CapturedNode.Device) items.get(4).work()).template()));
    assertEquals(
        "nodes 0, 2 (lane 0) as one test batch; nodes 5, 6, 7 (lane 0) as one test batch;"
            + " 2 device nodes as per-node enqueues",
        plan.deviceWork());
  }

  @Test
  void withoutFusionEveryDeviceNodeIsEnqueuedOnItsOwn() {
    device(0, "a", true, false);
    device(0, "b", true, false);
    java(0, "j1");
    java(0, "j2");

    GraphPlan plan = GraphPlan.of(List.copyOf(nodes), "graph 2", DeviceExecutor.synchronous());

    assertEquals(3, plan.items().size());
    assertSame(nodes.get(0), plan.items().get(0));
    assertSame(nodes.get(1), plan.items().get(1));
    WorkItem.Segment segment =
        assertInstanceOf(
            WorkItem.Segment.class, ((CapturedNode.Run) plan.items().get(2).work()).item());
    assertEquals(2, segment.kernels().length, "the Java kernels are one segment");
    assertEquals("2 device nodes as per-node enqueues", plan.deviceWork());
  }

  @Test
  void aGraphWithoutDeviceWorkSaysNothingOfIt() {
    java(0, "j");
    assertEquals("", GraphPlan.of(List.copyOf(nodes), "graph 3", FUSING).deviceWork());
  }

  @Test
  void anExecutorThatFusesMoreWorksThanItWasGivenIsCaught() {
    device(0, "a", true, false);
    device(0, "b", true, false);
    DeviceExecutor greedy =
        new DeviceExecutor() {
          @Override
          public DeviceQueue open(Stream stream) {
            return null;
          }

          @Override
          public Fusion fuse(Device device, List<DeviceWork> templates) {
            return new Fusion(templates.get(0), 3, "too many");
          }
        };
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class, () -> GraphPlan.of(List.copyOf(nodes), "graph 4", greedy));
    assertTrue(e.getMessage().contains("fused 3 works of 2 given"), e.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> new DeviceExecutor.Fusion(new Work("x", true), 1, "one"));
  }

  private static List<String> names(WorkItem.DeviceCommand command) {
    return ((Fused) command.work()).works().stream().map(work -> ((Work) work).name()).toList();
  }
}
