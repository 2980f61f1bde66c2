package dev.openaccel.cluster;

import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;

/**
 * Who may use this node: the members of its cluster, as this node's own view of the cluster state
 * says (joining, up, leaving or exiting; not down or removed). Internal; thread-safe, owns nothing
 * (the state is Pekko Cluster's).
 */
final class Membership {
  private final Cluster cluster;
  private final String self;

  Membership(Cluster cluster, String self) {
    this.cluster = cluster;
    this.self = self;
  }

  /** Whether {@code node} (an address as {@code Address.toString()} writes it) is a member. */
  boolean admits(String node) {
    if (node.equals(self)) {
      return true;
    }
    for (Member member : cluster.state().getMembers()) {
      if (member.address().toString().equals(node)) {
        MemberStatus status = member.status();
        return status != MemberStatus.down() && status != MemberStatus.removed();
      }
    }
    return false;
  }

  /** The members, for error messages. */
  List<String> members() {
    List<String> all = new ArrayList<>();
    for (Member member : cluster.state().getMembers()) {
      all.add(member.address().toString());
    }
    return all;
  }

  /** The error for a request of {@code node}, which is not a member. */
  IllegalStateException refusal(String node, String what) {
    return new IllegalStateException(
        "node "
            + self
            + " serves the members of its cluster only; "
            + node
            + " is not a member (members: "
            + members()
            + "), refused: "
            + what);
  }
}
