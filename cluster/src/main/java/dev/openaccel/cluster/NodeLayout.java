package dev.openaccel.cluster;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which members of a process group share a node: the nodes numbered in the order their first member
 * appears in the member list, each node's members in rank order, its first member the one that
 * speaks for it across nodes. It depends on the member list only. Internal; immutable.
 */
final class NodeLayout {
  private final int[] nodeOf; // by rank: the number of its node
  private final int[][] ranks; // by node: its members' ranks, ascending

  private NodeLayout(int[] nodeOf, int[][] ranks) {
    this.nodeOf = nodeOf;
    this.ranks = ranks;
  }

  /** The layout of {@code members}, in rank order. */
  static NodeLayout of(List<RemoteDevice> members) {
    Map<String, List<Integer>> byNode = new LinkedHashMap<>();
    int[] nodeOf = new int[members.size()];
    for (int rank = 0; rank < members.size(); rank++) {
      List<Integer> node = byNode.computeIfAbsent(members.get(rank).node(), n -> new ArrayList<>());
      node.add(rank);
    }
    int[][] ranks = new int[byNode.size()][];
    int node = 0;
    for (List<Integer> onNode : byNode.values()) {
      ranks[node] = onNode.stream().mapToInt(Integer::intValue).toArray();
      for (int rank : ranks[node]) {
        nodeOf[rank] = node;
      }
      node++;
    }
    return new NodeLayout(nodeOf, ranks);
  }

  /** Whether some node holds several members. */
  boolean shared() {
    return ranks.length < nodeOf.length;
  }

  /** The number of members. */
  int members() {
    return nodeOf.length;
  }

  /** The number of nodes. */
  int nodes() {
    return ranks.length;
  }

  /** The number of the node of {@code rank}. */
  int nodeOf(int rank) {
    return nodeOf[rank];
  }

  /** The ranks of the members of node {@code node}, ascending; the first speaks for the node. */
  int[] ranksOf(int node) {
    return ranks[node].clone();
  }

  /** The first member of each node, by node number. */
  int[] firsts() {
    int[] firsts = new int[ranks.length];
    for (int node = 0; node < ranks.length; node++) {
      firsts[node] = ranks[node][0];
    }
    return firsts;
  }

  /** Whether members {@code a} and {@code b} are on one node. */
  boolean sameNode(int a, int b) {
    return nodeOf[a] == nodeOf[b];
  }
}
