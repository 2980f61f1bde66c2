package dev.openaccel.cluster;

import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.trace.TraceBus;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.pekko.actor.typed.ActorSystem;
import scala.concurrent.ExecutionContextExecutor;

/**
 * One member's handle on a process group: devices of one or several nodes (several devices of a
 * node may be members) that run collectives together, as c10d's {@code ProcessGroup} or an NCCL
 * communicator. Made by {@link Collectives#create} on every member. Each operation is enqueued on
 * the caller's stream of this member's device and takes its place in the stream's order: it reads
 * its input after the work enqueued before it, and work enqueued after it sees its output (see
 * {@link Work}). No call blocks.
 *
 * <p>Every member calls the same collectives in the same order with the same element type, count,
 * reduce op and root; the i-th collective of each member is one operation. Members that disagree
 * fail that operation on every member, naming both sides. {@link #send} and {@link #recv} are
 * numbered per pair of members instead. Buffers are read and written as {@link ElementType}
 * elements; sizes are in bytes.
 *
 * <p>Misuse throws at the call, before anything is enqueued: a stream or buffer of another device
 * or a buffer of the wrong size ({@link IllegalArgumentException}), a closed buffer or a destroyed
 * group ({@link IllegalStateException}). Owns: whether it was destroyed (atomic, shared with the
 * handles {@link #inOrder} makes; the operation counters are its {@link GroupOps}'); thread-safe,
 * but calls from several threads have no defined order.
 */
public final class ProcessGroup {
  private final GroupChannel channel;
  private final Collectives owner;
  private final GroupOps ops;
  private final long smallLimit;
  private final AtomicBoolean destroyed;
  private final ByteOrder order;

  ProcessGroup(
      GroupChannel channel,
      Collectives owner,
      CollectiveSettings settings,
      ExecutionContextExecutor executor,
      ActorSystem<?> system,
      TraceBus trace) {
    this.channel = channel;
    this.owner = owner;
    this.ops = new GroupOps(channel, settings, executor, system, trace);
    this.smallLimit = settings.smallLimit();
    this.destroyed = new AtomicBoolean();
    this.order = ByteOrder.BIG_ENDIAN;
  }

  private ProcessGroup(ProcessGroup base, ByteOrder order) {
    this.channel = base.channel;
    this.owner = base.owner;
    this.ops = base.ops;
    this.smallLimit = base.smallLimit;
    this.destroyed = base.destroyed;
    this.order = order;
  }

  /**
   * This member's handle on the same group for buffers whose elements are in {@code order}: the
   * operations it enqueues read their input and write their output in that order (this handle's
   * buffers are big-endian, as {@link ElementType} reads them by default; little-endian is how
   * OpenCL device kernels, or Java kernels with views in native order, write them). Messages and
   * reductions keep the big-endian order, so members of either order form one group and get the
   * same values; the two handles share the group's operation numbers and its {@link #destroy}.
   */
  public ProcessGroup inOrder(ByteOrder order) {
    Objects.requireNonNull(order, "order");
    return new ProcessGroup(this, order);
  }

  /** The byte order of this handle's buffers ({@link #inOrder}). */
  public ByteOrder order() {
    return order;
  }

  /** The group's name. */
  public String name() {
    return channel.group();
  }

  /** The members, in rank order. */
  public List<RemoteDevice> members() {
    return channel.members();
  }

  /** This member's rank: its index in {@link #members()}. */
  public int rank() {
    return channel.rank();
  }

  /** The number of members. */
  public int size() {
    return channel.size();
  }

  /** This member's device. */
  public RemoteDevice device() {
    return channel.members().get(channel.rank());
  }

  /**
   * Every member's {@code input} reduced element by element with {@code op} into every member's
   * {@code output} (the same size; it may be the input), bit-identical on all members. An input of
   * at most {@code openaccel.cluster.collectives.small-limit} bytes is exchanged directly between
   * all members ({@link DirectAllReduce}), a larger one goes round the ring ({@link Ring}); both
   * reduce in the same order, so the result does not depend on which ran. When a node holds several
   * members, each node first reduces its members' inputs and one member per node takes part in that
   * exchange ({@link HierarchicalAllReduce}), in an order of its own.
   */
  public Work allReduce(
      Stream stream, DeviceBuffer input, DeviceBuffer output, ElementType type, ReduceOp op) {
    String call = "allReduce";
    long count = checked(stream, input, type, "input", call);
    GroupChecks.size(output, input.size(), "output", "the input's size", call);
    GroupChecks.elements(output, type, "output", stream, call);
    byte[] work = ops.hostArray((int) input.size());
    return ops.collective(
        call,
        type + " x " + count + ", " + op,
        stream,
        new HostOrder(type, order),
        input,
        ByteBuffer.wrap(work),
        output,
        ByteBuffer.wrap(work),
        ring ->
            ring.allReduce(work, count, channel.layout(), type, op, input.size() <= smallLimit));
  }

  /** {@code root}'s {@code buffer} copied into every other member's {@code buffer}. */
  public Work broadcast(Stream stream, DeviceBuffer buffer, ElementType type, int root) {
    String call = "broadcast";
    long count = checked(stream, buffer, type, "buffer", call);
    GroupChecks.rank(root, size(), rank(), false, "root", call);
    byte[] work = ops.hostArray((int) buffer.size());
    boolean isRoot = root == rank();
    return ops.collective(
        call,
        type + " x " + count + ", root " + root,
        stream,
        new HostOrder(type, order),
        isRoot ? buffer : null,
        ByteBuffer.wrap(work),
        isRoot ? null : buffer,
        ByteBuffer.wrap(work),
        ring -> ring.broadcast(work, root));
  }

  /** Every member's {@code input}, in rank order, into every member's {@code output}. */
  public Work allGather(Stream stream, DeviceBuffer input, DeviceBuffer output, ElementType type) {
    String call = "allGather";
    long count = checked(stream, input, type, "input", call);
    GroupChecks.size(output, input.size() * size(), "output", "members x input", call);
    GroupChecks.elements(output, type, "output", stream, call);
    int block = (int) input.size();
    byte[] work = ops.hostArray(block * size());
    return ops.collective(
        call,
        type + " x " + count + " each",
        stream,
        new HostOrder(type, order),
        input,
        ByteBuffer.wrap(work, block * rank(), block),
        output,
        ByteBuffer.wrap(work),
        ring -> ring.allGather(work, Pieces.blocks(block, size())));
  }

  /**
   * The members' {@code input}s (each {@code members} blocks of the output's size) reduced with
   * {@code op}; block {@code rank()} of the result into this member's {@code output}.
   */
  public Work reduceScatter(
      Stream stream, DeviceBuffer input, DeviceBuffer output, ElementType type, ReduceOp op) {
    String call = "reduceScatter";
    long count = checked(stream, output, type, "output", call);
    GroupChecks.size(input, output.size() * size(), "input", "members x output", call);
    GroupChecks.elements(input, type, "input", stream, call);
    int block = (int) output.size();
    byte[] work = ops.hostArray(block * size());
    return ops.collective(
        call,
        type + " x " + count + " each, " + op,
        stream,
        new HostOrder(type, order),
        input,
        ByteBuffer.wrap(work),
        output,
        ByteBuffer.wrap(work, block * rank(), block),
        ring -> ring.reduceScatter(work, Pieces.blocks(block, size()), type, op));
  }

  /**
   * Every member's {@code input} reduced with {@code op} into {@code root}'s {@code output} (the
   * input's size on every member; only the root's is written).
   */
  public Work reduce(
      Stream stream,
      DeviceBuffer input,
      DeviceBuffer output,
      ElementType type,
      ReduceOp op,
      int root) {
    String call = "reduce";
    long count = checked(stream, input, type, "input", call);
    GroupChecks.size(output, input.size(), "output", "the input's size", call);
    GroupChecks.elements(output, type, "output", stream, call);
    GroupChecks.rank(root, size(), rank(), false, "root", call);
    byte[] work = ops.hostArray((int) input.size());
    return ops.collective(
        call,
        type + " x " + count + ", " + op + ", root " + root,
        stream,
        new HostOrder(type, order),
        input,
        ByteBuffer.wrap(work),
        root == rank() ? output : null,
        ByteBuffer.wrap(work),
        ring -> ring.reduce(work, root, type, op));
  }

  /** Completes on every member once every member's stream has reached it. */
  public Work barrier(Stream stream) {
    String call = "barrier";
    check(stream, call);
    return ops.collective(
        call, "", stream, HostOrder.NONE, null, null, null, null, ring -> Ring.done());
  }

  /** {@code buffer} to member {@code peer}, which calls {@link #recv} with this rank. */
  public Work send(Stream stream, DeviceBuffer buffer, ElementType type, int peer) {
    return transfer("send", stream, buffer, type, peer, true);
  }

  /** Into {@code buffer}, what member {@code peer} sends with {@link #send} to this rank. */
  public Work recv(Stream stream, DeviceBuffer buffer, ElementType type, int peer) {
    return transfer("recv", stream, buffer, type, peer, false);
  }

  private Work transfer(
      String call, Stream stream, DeviceBuffer buffer, ElementType type, int peer, boolean out) {
    long count = checked(stream, buffer, type, "buffer", call);
    GroupChecks.rank(peer, size(), rank(), true, "peer", call);
    byte[] work = ops.hostArray((int) buffer.size());
    return ops.pointToPoint(
        call,
        stream,
        new HostOrder(type, order),
        count,
        peer,
        out ? rank() : peer,
        out ? buffer : null,
        work,
        out ? null : buffer,
        ring -> out ? ring.send(work, peer) : ring.receive(work, peer));
  }

  /**
   * Ends this member's use of the group: later calls throw {@link IllegalStateException}.
   * Operations enqueued before still run; once they all ended, the messages that arrived for the
   * group and were not taken are dropped and the name can be created again here. Idempotent.
   */
  public void destroy() {
    if (destroyed.compareAndSet(false, true)) {
      ops.destroy(() -> owner.destroyed(channel));
    }
  }

  /** The group's reusable host arrays, for tests. */
  HostArrays hostArrays() {
    return ops.hostArrays();
  }

  @Override
  public String toString() {
    return "ProcessGroup('" + name() + "', rank " + rank() + " of " + size() + ")";
  }

  private long checked(
      Stream stream, DeviceBuffer buffer, ElementType type, String role, String call) {
    check(stream, call);
    return GroupChecks.elements(buffer, type, role, stream, call);
  }

  private void check(Stream stream, String call) {
    if (destroyed.get()) {
      throw new IllegalStateException(
          call + ": process group '" + name() + "' was destroyed on this member");
    }
    GroupChecks.stream(stream, device().device(), call + " of group '" + name() + "'");
  }
}
