package dev.openaccel.cluster;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.Stream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;

/**
 * A process group over devices of a {@link TestCluster} (device 0 of each node, or any list of
 * devices, several of one node among them), with one stream per member, and the host-side helpers
 * the collectives tests share.
 */
final class Groups implements AutoCloseable {
  private final TestCluster cluster;
  private final List<ProcessGroup> groups;
  private final int[] nodeOf; // by rank: the index of its node in the cluster
  private final List<Stream> streams = new ArrayList<>();
  private final List<DeviceBuffer> buffers = new ArrayList<>();

  private Groups(TestCluster cluster, List<ProcessGroup> groups, int[] nodeOf) {
    this.cluster = cluster;
    this.groups = groups;
    this.nodeOf = nodeOf;
    for (ProcessGroup group : groups) {
      streams.add(accelerator(group.rank()).newStream(group.device().device()));
    }
  }

  /** The members of a group over the first {@code n} nodes, device 0 of each. */
  static List<RemoteDevice> members(TestCluster cluster, int n) {
    List<RemoteDevice> members = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      members.add(cluster.device(i, 0));
    }
    return members;
  }

  /** Creates the group {@code name} on the first {@code n} nodes, all at once. */
  static Groups create(TestCluster cluster, int n, String name) {
    return create(cluster, n, name, -1);
  }

  /**
   * Creates the group {@code name} on the first {@code n} nodes, all at once, with {@code
   * smallLimit} as its small-limit (0: every all-reduce takes the ring), or the nodes' setting if
   * negative.
   */
  static Groups create(TestCluster cluster, int n, String name, long smallLimit) {
    return create(cluster, members(cluster, n), name, smallLimit);
  }

  /**
   * Creates the group {@code name} of {@code members}, every member's creation on its own node at
   * once (two of one node from that node's one thread, asynchronously), with {@code smallLimit} as
   * in {@link #create(TestCluster, int, String, long)}.
   */
  static Groups create(
      TestCluster cluster, List<RemoteDevice> members, String name, long smallLimit) {
    int[] nodeOf = nodesOf(cluster, members);
    List<CompletableFuture<ProcessGroup>> created = new ArrayList<>();
    for (int i = 0; i < members.size(); i++) {
      Collectives collectives = cluster.node(nodeOf[i]).collectives();
      created.add(
          (smallLimit < 0
                  ? collectives.createAsync(name, members, members.get(i))
                  : collectives.createAsync(name, members, members.get(i), smallLimit))
              .toCompletableFuture());
    }
    List<ProcessGroup> groups = new ArrayList<>();
    for (CompletableFuture<ProcessGroup> group : created) {
      groups.add(await(group));
    }
    return new Groups(cluster, groups, nodeOf);
  }

  /** Groups already created, one per member in rank order (each on its member's node). */
  static Groups of(TestCluster cluster, List<ProcessGroup> groups) {
    List<RemoteDevice> members = groups.get(0).members();
    return new Groups(cluster, List.copyOf(groups), nodesOf(cluster, members));
  }

  /** The index in {@code cluster} of each member's node, by rank. */
  static int[] nodesOf(TestCluster cluster, List<RemoteDevice> members) {
    int[] nodeOf = new int[members.size()];
    for (int rank = 0; rank < members.size(); rank++) {
      nodeOf[rank] = -1;
      for (int node = 0; nodeOf[rank] < 0; node++) {
        if (cluster.node(node).selfNode().equals(members.get(rank).node())) {
          nodeOf[rank] = node;
        }
      }
    }
    return nodeOf;
  }

  static <T> T await(CompletableFuture<T> stage) {
    try {
      return stage.get(TestCluster.WAIT.toSeconds(), TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError("not completed within " + TestCluster.WAIT, e);
    }
  }

  /**
   * Waits, bounded, until no node of {@code cluster} holds a message or take of group {@code name}
   * (an operation forgets its takes as it ends, alongside its Work's completion).
   */
  static void awaitNothingHeld(TestCluster cluster, int nodes, String name) {
    long deadline = System.nanoTime() + TestCluster.WAIT.toNanos();
    for (int node = 0; node < nodes; node++) {
      Collectives collectives = cluster.node(node).collectives();
      while (collectives.heldMessages(name) != 0) {
        int n = node;
        assertTrue(
            System.nanoTime() < deadline,
            () -> "node " + n + " still holds " + collectives.heldMessages(name) + " of " + name);
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
      }
    }
  }

  /** A 40-byte buffer per member holding int32 {@code value}s. */
  List<DeviceBuffer> ints(int value) {
    List<DeviceBuffer> data = new ArrayList<>();
    for (int rank = 0; rank < size(); rank++) {
      ByteBuffer bytes = ByteBuffer.allocate(40);
      for (int i = 0; i < 40; i += 4) {
        bytes.putInt(i, value);
      }
      data.add(buffer(rank, bytes.array()));
    }
    return data;
  }

  /** The message of {@code work}'s failure, which must come within the bounded wait. */
  static String failure(Work work) {
    return assertThrows(
            DeviceExecutionException.class,
            () -> work.synchronize(TestCluster.WAIT),
            work::toString)
        .getMessage();
  }

  /**
   * Waits, at most {@link TestCluster#WAIT}, for {@code stage} to fail with a {@code type}; returns
   * that failure's message.
   */
  static String failure(CompletableFuture<?> stage, Class<? extends Throwable> type) {
    ExecutionException e =
        assertThrows(
            ExecutionException.class,
            () -> stage.get(TestCluster.WAIT.toSeconds(), TimeUnit.SECONDS));
    String message = e.getCause().getMessage();
    assertTrue(type.isInstance(e.getCause()), message);
    return message;
  }

  int size() {
    return groups.size();
  }

  ProcessGroup group(int rank) {
    return groups.get(rank);
  }

  Stream stream(int rank) {
    return streams.get(rank);
  }

  Accelerator accelerator(int rank) {
    return cluster.node(nodeOf[rank]).accelerator();
  }

  /** The all-reduce of {@code inputs} (by rank) that {@link Reference} gives for these members. */
  byte[] expectedAllReduce(List<byte[]> inputs, ElementType type, ReduceOp op) {
    List<String> nodes = new ArrayList<>();
    groups.forEach(group -> nodes.add(group.device().node()));
    return Reference.allReduce(inputs, nodes, type, op);
  }

  /** A buffer on member {@code rank}'s device holding {@code bytes}, written on its stream. */
  DeviceBuffer buffer(int rank, byte[] bytes) {
    DeviceBuffer buffer = empty(rank, bytes.length);
    stream(rank).copyToDevice(ByteBuffer.wrap(bytes), buffer);
    return buffer;
  }

  /** A new buffer of {@code size} bytes on member {@code rank}'s device. */
  DeviceBuffer empty(int rank, long size) {
    DeviceBuffer buffer = accelerator(rank).allocate(group(rank).device().device(), size);
    buffers.add(buffer);
    return buffer;
  }

  /** Frees {@code buffer}, made by {@link #buffer} or {@link #empty}, before the group closes. */
  void release(DeviceBuffer buffer) {
    buffers.remove(buffer);
    buffer.close();
  }

  /** {@code buffer}'s bytes, read on member {@code rank}'s stream after the work before. */
  byte[] read(int rank, DeviceBuffer buffer) {
    ByteBuffer host = ByteBuffer.allocate((int) buffer.size());
    stream(rank).copyToHost(buffer, host);
    stream(rank).synchronize();
    return host.array();
  }

  /** An in-place all-reduce of {@code buffer} on {@code rank}'s own stream. */
  Work allReduceInPlace(int rank, DeviceBuffer buffer, ElementType type, ReduceOp op) {
    return group(rank).allReduce(stream(rank), buffer, buffer, type, op);
  }

  /** An in-place int32 sum all-reduce of {@code buffer} on {@code rank}'s own stream. */
  Work sumInPlace(int rank, DeviceBuffer buffer) {
    return allReduceInPlace(rank, buffer, ElementType.INT32, ReduceOp.SUM);
  }

  /** Calls {@code call} for every rank, then waits (bounded) for every work to complete. */
  List<Work> onAll(IntFunction<Work> call) {
    List<Work> works = new ArrayList<>();
    for (int rank = 0; rank < size(); rank++) {
      works.add(call.apply(rank));
    }
    for (Work work : works) {
      assertTrue(work.synchronize(TestCluster.WAIT), () -> work + " did not complete");
    }
    return works;
  }

  @Override
  public void close() {
    buffers.forEach(DeviceBuffer::close);
    streams.forEach(Stream::close);
    groups.forEach(ProcessGroup::destroy);
  }
}
