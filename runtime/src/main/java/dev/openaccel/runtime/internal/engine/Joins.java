package dev.openaccel.runtime.internal.engine;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Deque;
import java.util.List;

/**
 * The rule a capture ends by: every stream that joined it is joined back, its last node an ancestor
 * of the capturing stream's last node. Internal; stateless.
 */
final class Joins {
  private Joins() {}

  /** A description of each lane whose last node the capturing stream does not wait for. */
  static List<String> unjoined(
      List<CapturedNode> nodes, List<Integer> lastOfLane, List<StreamQueue> lanes) {
    BitSet before = new BitSet(nodes.size());
    Deque<Integer> todo = new ArrayDeque<>();
    if (lastOfLane.get(0) >= 0) {
      todo.push(lastOfLane.get(0));
    }
    while (!todo.isEmpty()) {
      int node = todo.pop();
      if (!before.get(node)) {
        before.set(node);
        nodes.get(node).node().dependencies().forEach(todo::push);
      }
    }
    List<String> unjoined = new ArrayList<>();
    for (int lane = 1; lane < lastOfLane.size(); lane++) {
      int last = lastOfLane.get(lane);
      if (last >= 0 && !before.get(last)) {
        CapturedNode node = nodes.get(last);
        unjoined.add(
            lanes.get(lane).stream()
                + " joined it and has work not waited for: node "
                + last
                + " '"
                + node.node().name()
                + "'");
      }
    }
    return unjoined;
  }
}
