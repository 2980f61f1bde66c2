package dev.openaccel.cluster;

import dev.openaccel.cluster.sample.SampleNode;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Stream;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import java.util.zip.CRC32;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.AddressFromURIString;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Join;
import org.apache.pekko.cluster.typed.Leave;

/**
 * One JVM of {@link CollectivesProcessesTest}: {@code CollectivesNode seed} starts the seed node,
 * {@code CollectivesNode <seed address>} a node that joins it; each prints {@code node <address>}.
 * Once {@value #MEMBERS} nodes are up, the members are the nodes in sorted order, device openreg:0
 * of each, and every member runs the same sequence of collectives on seeded inputs. Every member
 * knows every member's input (the seed is the operation's number and the rank), so each checks its
 * own output against {@link Reference} and prints {@code op <name>: OK crc <CRC32 of its output>}
 * (a reduce's members other than the root, whose output is not written: {@code OK, completed}) or
 * {@code op <name>: FAIL ...}, then {@code ops done: <count>, failed: <count>}. After a last
 * barrier it leaves the cluster and exits 0 if nothing failed, else 1.
 *
 * <p>Owns: the operation counter and the failure count (written by the main thread only).
 */
final class CollectivesNode {
  /** The member count. */
  static final int MEMBERS = 3;

  /** The small element count: odd, and 3 does not divide it. */
  static final int SMALL = 1001;

  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final String GROUP = "xjvm";
  private static final String CONFIG =
      "pekko.cluster.split-brain-resolver.stable-after = 2s\n"
          + "pekko.coordinated-shutdown.run-by-jvm-shutdown-hook = off\n"
          + "openaccel.cluster.collectives.op-timeout = 60s\n";

  private final ProcessGroup group;
  private final Accelerator accelerator;
  private final Stream stream;
  private final int rank;
  private int ops;
  private int failed;

  private CollectivesNode(ProcessGroup group, Accelerator accelerator) {
    this.group = group;
    this.accelerator = accelerator;
    this.stream = accelerator.newStream(group.device().device());
    this.rank = group.rank();
  }

  /**
   * The large element count of {@code type}: 300 KiB and one element, above the default small-limit
   * (256 KiB), odd, and 3 does not divide it.
   */
  static int large(ElementType type) {
    return 300 * 1024 / type.size() + 1;
  }

  /** The reduce ops of the all-reduces of {@code type}. */
  static List<ReduceOp> reduceOps(ElementType type) {
    return type == ElementType.FLOAT32
        ? List.of(ReduceOp.SUM, ReduceOp.MAX, ReduceOp.AVERAGE)
        : List.of(ReduceOp.SUM, ReduceOp.MAX);
  }

  /** Runs a node, then exits the JVM: 0 if every operation gave the reference's result, else 1. */
  public static void main(String[] args) {
    int status;
    try {
      status = run(args);
    } catch (RuntimeException failure) {
      System.out.println("collectives failed: " + failure);
      status = 1;
    }
    System.out.flush();
    System.exit(status);
  }

  private static int run(String[] args) {
    if (args.length != 1) {
      throw new IllegalArgumentException("usage: CollectivesNode seed|<seed address>");
    }
    Address seed = args[0].equals("seed") ? null : AddressFromURIString.parse(args[0]);
    ActorSystem<Void> system =
        ActorSystem.create(Behaviors.empty(), "openaccel", SampleNode.config(0, CONFIG));
    Cluster cluster = Cluster.get(system);
    Address self = cluster.selfMember().address();
    cluster.manager().tell(Join.create(seed == null ? self : seed));
    ClusterAccelerator node = ClusterAccelerator.get(system);
    System.out.println("node " + node.selfNode());
    try {
      if (!node.awaitNodes(MEMBERS, WAIT)) {
        throw new IllegalStateException(
            MEMBERS + " nodes did not join within " + WAIT + ": " + node.nodes());
      }
      List<RemoteDevice> members = new ArrayList<>();
      node.nodes().forEach(member -> members.add(RemoteDevice.parse(member + "/openreg:0")));
      RemoteDevice mine = members.get(new ArrayList<>(node.nodes()).indexOf(node.selfNode()));
      ProcessGroup group = node.collectives().create(GROUP, members, mine);
      CollectivesNode member = new CollectivesNode(group, node.accelerator());
      System.out.printf("rank %d of %d%n", group.rank(), group.size());
      member.runAll();
      group.destroy();
      System.out.printf("ops done: %d, failed: %d%n", member.ops, member.failed);
      cluster.manager().tell(Leave.create(self));
      await(system); // a member that left is removed, and its actor system stops
      return member.failed == 0 ? 0 : 1;
    } finally {
      system.terminate();
      await(system);
    }
  }

  private void runAll() {
    for (ElementType type : ElementType.values()) {
      int[] counts = {SMALL, large(type)};
      for (int size = 0; size < counts.length; size++) {
        int count = counts[size];
        for (ReduceOp op : reduceOps(type)) {
          List<byte[]> in = inputs(type, count);
          check(
              "allReduce %s %s x%d".formatted(name(type), name(op), count),
              Reference.allReduce(in, type, op),
              () -> call(in, in.get(0).length, (i, o) -> group.allReduce(stream, i, o, type, op)));
        }
        others(type, count, (2 * type.ordinal() + size) % MEMBERS);
      }
    }
    List<byte[]> sent = inputs(ElementType.FLOAT32, large(ElementType.FLOAT32));
    check("sendRecv 0>1>2 float32 x" + large(ElementType.FLOAT32), sent.get(0), () -> chain(sent));
    check("barrier", new byte[0], () -> call(List.of(), 0, (i, o) -> group.barrier(stream)));
  }

  /** The other collectives, broadcast from {@code root} and reduced to the next rank. */
  private void others(ElementType type, int count, int root) {
    String each = "%s x%d".formatted(name(type), count);
    List<byte[]> shared = inputs(type, count);
    check(
        "broadcast %s root %d".formatted(each, root),
        shared.get(root),
        () -> call(shared, -1, (i, o) -> group.broadcast(stream, i, type, root)));
    List<byte[]> gathered = inputs(type, count);
    ByteBuffer all = ByteBuffer.allocate(MEMBERS * gathered.get(0).length);
    gathered.forEach(all::put);
    check(
        "allGather " + each,
        all.array(),
        () -> call(gathered, all.capacity(), (i, o) -> group.allGather(stream, i, o, type)));
    List<byte[]> scattered = inputs(type, MEMBERS * count);
    check(
        "reduceScatter %s sum".formatted(each),
        Reference.reduceScatter(scattered, type, ReduceOp.SUM, rank),
        () ->
            call(
                scattered,
                (long) count * type.size(),
                (i, o) -> group.reduceScatter(stream, i, o, type, ReduceOp.SUM)));
    List<byte[]> reduced = inputs(type, count);
    int to = (root + 1) % MEMBERS;
    // Only the root's output is written: the others check that the operation completed.
    check(
        "reduce %s sum root %d".formatted(each, to),
        rank == to ? Reference.reduce(reduced, type, ReduceOp.SUM, to) : null,
        () ->
            call(
                reduced,
                reduced.get(0).length,
                (i, o) -> group.reduce(stream, i, o, type, ReduceOp.SUM, to)));
  }

  /** Rank 0 sends its input to rank 1, which receives it and sends it on to rank 2. */
  private byte[] chain(List<byte[]> inputs) {
    DeviceBuffer buffer = accelerator.allocate(group.device().device(), inputs.get(0).length);
    try {
      ElementType type = ElementType.FLOAT32;
      stream.copyToDevice(ByteBuffer.wrap(inputs.get(rank)), buffer);
      if (rank > 0) {
        complete(group.recv(stream, buffer, type, rank - 1));
      }
      if (rank < MEMBERS - 1) {
        complete(group.send(stream, buffer, type, rank + 1));
      }
      return read(buffer);
    } finally {
      buffer.close();
    }
  }

  /**
   * Prints the line of the next operation: OK if {@code actual} completes and gives {@code
   * expected} (null: any bytes).
   */
  private void check(String name, byte[] expected, Supplier<byte[]> actual) {
    ops++;
    try {
      byte[] bytes = actual.get();
      if (expected == null) {
        System.out.printf("op %s: OK, completed (its output is not written here)%n", name);
      } else if (Arrays.equals(bytes, expected)) {
        System.out.printf("op %s: OK crc %s%n", name, crc(bytes));
      } else {
        failed++;
        System.out.printf(
            "op %s: FAIL crc %s, the reference's %s, first difference at byte %d%n",
            name, crc(bytes), crc(expected), Arrays.mismatch(bytes, expected));
      }
    } catch (RuntimeException failure) {
      failed++;
      System.out.printf("op %s: FAIL %s%n", name, failure);
    }
  }

  /**
   * Runs {@code op} on buffers holding this member's input and an output of {@code outSize} bytes
   * (negative: in place, the input buffer is read back) and returns the output's bytes.
   */
  private byte[] call(
      List<byte[]> inputs, long outSize, BiFunction<DeviceBuffer, DeviceBuffer, Work> op) {
    byte[] input = inputs.isEmpty() ? new byte[0] : inputs.get(rank);
    if (input.length == 0 && outSize == 0) {
      complete(op.apply(null, null));
      return new byte[0];
    }
    DeviceBuffer in = accelerator.allocate(group.device().device(), input.length);
    DeviceBuffer out = outSize < 0 ? in : accelerator.allocate(group.device().device(), outSize);
    try {
      stream.copyToDevice(ByteBuffer.wrap(input), in);
      complete(op.apply(in, out));
      return read(out);
    } finally {
      in.close();
      if (out != in) {
        out.close();
      }
    }
  }

  private byte[] read(DeviceBuffer buffer) {
    ByteBuffer host = ByteBuffer.allocate((int) buffer.size());
    stream.copyToHost(buffer, host);
    try {
      stream.synchronizeAsync().toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted reading " + buffer, e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("reading " + buffer + " failed: " + e.getCause(), e);
    } catch (TimeoutException e) {
      throw new IllegalStateException("reading " + buffer + " took over " + WAIT, e);
    }
    return host.array();
  }

  private static void complete(Work work) {
    if (!work.synchronize(WAIT)) {
      throw new IllegalStateException(work + " did not complete within " + WAIT);
    }
  }

  /** Every member's input of the next operation: seeded by the operation's number and the rank. */
  private List<byte[]> inputs(ElementType type, int count) {
    List<byte[]> inputs = new ArrayList<>();
    for (int r = 0; r < MEMBERS; r++) {
      inputs.add(Reference.random(type, count, 1000L * ops + r));
    }
    return inputs;
  }

  private static String crc(byte[] bytes) {
    CRC32 crc = new CRC32();
    crc.update(bytes);
    return "%08x".formatted(crc.getValue());
  }

  static String name(ElementType type) {
    return type.name().toLowerCase(Locale.ROOT);
  }

  static String name(ReduceOp op) {
    return op.name().toLowerCase(Locale.ROOT);
  }

  private static void await(ActorSystem<Void> system) {
    try {
      system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      System.out.println(system.address() + " did not stop within 30 s: " + e);
    }
  }
}
