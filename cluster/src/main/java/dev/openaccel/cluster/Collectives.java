package dev.openaccel.cluster;

import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.trace.TraceBus;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.DispatcherSelector;
import scala.concurrent.ExecutionContextExecutor;

/**
 * Creates this node's {@link ProcessGroup}s ({@link ClusterAccelerator#collectives()}). A group is
 * created collectively: every member calls {@link #create} with the same name and member list, on
 * the member's own node (two members of one node call it there twice, from two threads or with
 * {@link #createAsync}), and each call completes once every member has joined. This class is
 * thread-safe.
 *
 * <p>Owns: the groups open on this node, by tag, with the devices of this node each is open for (a
 * concurrent map, changed only in its atomic {@code compute}).
 */
public final class Collectives {
  private final ActorSystem<?> system;
  private final String self;
  private final Bulk bulk;
  private final CollectiveSettings settings;
  private final TraceBus trace;
  private final ExecutionContextExecutor executor;
  private final Map<Long, Open> open = new ConcurrentHashMap<>();

  /** A group open here: its name, its members and the devices of this node it is open for. */
  private record Open(String name, List<RemoteDevice> members, Set<RemoteDevice> devices) {}

  Collectives(
      ActorSystem<?> system, String self, Bulk bulk, CollectiveSettings settings, TraceBus trace) {
    this.system = system;
    this.self = self;
    this.bulk = bulk;
    this.settings = settings;
    this.trace = trace;
    this.executor =
        system
            .dispatchers()
            .lookup(DispatcherSelector.fromConfig("openaccel.cluster.collectives.dispatcher"));
  }

  /**
   * Creates this member's end of the group {@code name} of {@code members} (distinct devices of one
   * or several nodes, in rank order) for {@code device}, one of them on this node; waits until
   * every member has joined.
   *
   * @throws IllegalArgumentException if the name is empty, the members are empty, more than 256,
   *     name a device twice, or do not include {@code device}, or {@code device} is of another
   *     node; or if members disagree on the member list (naming both)
   * @throws IllegalStateException if this group is already open here for {@code device}, or another
   *     group of the same tag (another name, or the same name with other members) is open here
   * @throws DeviceExecutionException naming the members that did not join within {@code
   *     openaccel.cluster.collectives.join-timeout}, or a member that left the cluster
   */
  public ProcessGroup create(String name, List<RemoteDevice> members, RemoteDevice device) {
    return Blocking.await(
        system,
        createAsync(name, members, device),
        "Collectives.create",
        "Collectives.createAsync");
  }

  /** Like {@link #create}, without blocking: the stage fails instead (misuse throws at once). */
  public CompletionStage<ProcessGroup> createAsync(
      String name, List<RemoteDevice> members, RemoteDevice device) {
    return createAsync(name, members, device, settings.smallLimit());
  }

  /**
   * Like {@link #createAsync(String, List, RemoteDevice)} with {@code smallLimit} as the group's
   * {@code openaccel.cluster.collectives.small-limit}, so that measurements and tests run both
   * all-reduce algorithms over the same nodes. Every member must give the same limit.
   */
  CompletionStage<ProcessGroup> createAsync(
      String name, List<RemoteDevice> members, RemoteDevice device, long smallLimit) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(device, "device");
    List<RemoteDevice> all = List.copyOf(members);
    int rank = checkMembers(name, all, device);
    long tag = GroupChannel.tagOf(name);
    open.compute(tag, (t, before) -> opened(before, name, all, device));
    GroupChannel channel = new GroupChannel(name, all, rank, bulk);
    CollectiveSettings own = settings.withSmallLimit(smallLimit);
    CompletableFuture<ProcessGroup> created =
        join(channel, smallLimit)
            .thenApply(v -> new ProcessGroup(channel, this, own, executor, system, trace));
    created.whenComplete(
        (group, failure) -> {
          if (failure != null) {
            destroyed(channel);
          }
        });
    return created;
  }

  /**
   * The member {@code channel} of a group ended on this node (destroyed, or never created). Its
   * untaken messages are dropped; once no member of the group is open on this node, so is every
   * untaken message of the group held here (joins for a member of this node that never created its
   * end included), so that a later creation of the name meets none of them. Both happen before the
   * name is free again here, in the same atomic step, so that no new creation's message is dropped
   * by them.
   */
  void destroyed(GroupChannel channel) {
    RemoteDevice device = channel.members().get(channel.rank());
    open.compute(
        channel.tag(),
        (t, now) -> {
          Set<RemoteDevice> left = new HashSet<>(now == null ? Set.of() : now.devices());
          left.remove(device);
          if (left.isEmpty()) {
            bulk.mailbox().purge(channel.tag());
            return null;
          }
          bulk.mailbox().purge(channel);
          return new Open(now.name(), now.members(), Set.copyOf(left));
        });
  }

  /** The group open under a tag once {@code device} opened it; throws if it may not. */
  private Open opened(Open before, String name, List<RemoteDevice> members, RemoteDevice device) {
    if (before == null) {
      return new Open(name, members, Set.of(device));
    }
    if (!before.name().equals(name)
        || !before.members().equals(members)
        || before.devices().contains(device)) {
      throw new IllegalStateException(
          "process group '"
              + name
              + "' cannot be created for "
              + device
              + ": group '"
              + before.name()
              + "' (the same tag) is open here for "
              + before.devices()
              + " with members "
              + before.members()
              + "; destroy it or choose another name");
    }
    Set<RemoteDevice> devices = new HashSet<>(before.devices());
    devices.add(device);
    return new Open(name, members, Set.copyOf(devices));
  }

  /** Messages and takes of the group {@code name} held on this node, for tests. */
  int heldMessages(String name) {
    return bulk.mailbox().size(GroupChannel.tagOf(name));
  }

  private int checkMembers(String name, List<RemoteDevice> members, RemoteDevice device) {
    if (name.isEmpty() || members.isEmpty() || members.size() > GroupChannel.MAX_MEMBERS) {
      throw new IllegalArgumentException(
          "a process group needs a name and 1 to "
              + GroupChannel.MAX_MEMBERS
              + " members, got '"
              + name
              + "' with "
              + members.size());
    }
    Set<RemoteDevice> devices = new HashSet<>();
    Map<String, RemoteDevice> joinCodes = new HashMap<>();
    for (RemoteDevice member : members) {
      if (!devices.add(Objects.requireNonNull(member, "member"))) {
        throw new IllegalArgumentException(
            "process group '" + name + "': device " + member + " is named twice: " + members);
      }
      RemoteDevice alike =
          joinCodes.putIfAbsent(
              member.node() + "#" + GroupChannel.joinCode(member.device()), member);
      if (alike != null) {
        throw new IllegalArgumentException(
            "process group '"
                + name
                + "': devices "
                + alike
                + " and "
                + member
                + " of one node cannot both be members: the names of their device types hash"
                + " alike, so the group's join messages could not tell them apart");
      }
    }
    if (!device.node().equals(self)) {
      throw new IllegalArgumentException(
          "process group '" + name + "': " + device + " is a device of another node than " + self);
    }
    int rank = members.indexOf(device);
    if (rank < 0) {
      throw new IllegalArgumentException(
          "process group '" + name + "': " + device + " is not a member of " + members);
    }
    return rank;
  }

  /**
   * Exchanges joins with every other member; they compare the member lists and the small limits, as
   * members that ran different all-reduce algorithms would misread each other's messages.
   */
  private CompletableFuture<Void> join(GroupChannel channel, long smallLimit) {
    long message = GroupChannel.message(GroupChannel.JOIN, 0, 0, 0);
    String mine = "members " + channel.members() + " and small-limit " + smallLimit;
    Set<Integer> missing = new ConcurrentSkipListSet<>();
    List<CompletableFuture<?>> steps = new ArrayList<>();
    List<Integer> peers = new ArrayList<>();
    List<CompletableFuture<byte[]>> theirs = new ArrayList<>();
    for (int member = 0; member < channel.size(); member++) {
      if (member != channel.rank()) {
        int peer = member;
        peers.add(peer);
        missing.add(peer);
        steps.add(channel.send(peer, message, mine.getBytes(StandardCharsets.UTF_8)));
        theirs.add(channel.take(peer, message).whenComplete((b, e) -> missing.remove(peer)));
      }
    }
    steps.addAll(theirs);
    // Compared once all arrived, so that a disagreement leaves no join behind.
    CompletableFuture<Void> joined = new CompletableFuture<>();
    OpRun.all(steps)
        .thenRun(() -> compare(channel, mine, peers, theirs))
        .whenComplete(
            (v, failure) -> {
              if (failure == null) {
                joined.complete(null);
              } else {
                joined.completeExceptionally(Failures.unwrap(failure));
              }
            });
    var timer =
        system
            .scheduler()
            .scheduleOnce(
                settings.joinTimeout(),
                () ->
                    joined.completeExceptionally(
                        new DeviceExecutionException(
                            "process group '"
                                + channel.group()
                                + "' on "
                                + channel.describe(channel.rank())
                                + ": no join within "
                                + settings.joinTimeout()
                                + " ("
                                + CollectiveSettings.JOIN_TIMEOUT
                                + ") from "
                                + missing.stream().map(channel::describe).toList())),
                executor);
    return joined.whenComplete(
        (v, failure) -> {
          timer.cancel();
          for (int peer : missing) {
            channel.cancel(peer, message);
          }
        });
  }

  private static void compare(
      GroupChannel channel, String mine, List<Integer> peers, List<CompletableFuture<byte[]>> all) {
    for (int i = 0; i < peers.size(); i++) {
      String theirs = new String(all.get(i).join(), StandardCharsets.UTF_8);
      if (!theirs.equals(mine)) {
        throw new IllegalArgumentException(
            "process group '"
                + channel.group()
                + "': members disagree: "
                + channel.describe(channel.rank())
                + " has "
                + mine
                + " but "
                + channel.describe(peers.get(i))
                + " has "
                + theirs);
      }
    }
  }
}
