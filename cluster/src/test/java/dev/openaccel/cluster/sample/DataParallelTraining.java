package dev.openaccel.cluster.sample;

import dev.openaccel.cluster.ClusterAccelerator;
import dev.openaccel.cluster.ElementType;
import dev.openaccel.cluster.ProcessGroup;
import dev.openaccel.cluster.RemoteDevice;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Stream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;

/**
 * Data-parallel SGD over the members of a cluster, one device each: the driver (rank 0, the first
 * node named) and the workers each own a shard and run {@link MemberTraining} on a stream of their
 * device; the gradients meet in the process group {@value #GRADS}, whose all-reduce number {@code
 * n} is step {@code n}. A second group, {@value #CONTROL}, carries the rest: the driver's {@link
 * TrainingSettings} broadcast to every member before the first step (the workers know nothing
 * else), every member's final weights gathered to every member after the last, then a barrier, so
 * that when the driver's returns every member has had all it waited for.
 *
 * <p>Every member calls {@link #drive} (rank 0) or {@link #follow} (the others) on its own node;
 * each blocks until the training ended and fails with {@link TrainingFailure} naming where it
 * stopped, e.g. when a member leaves the cluster mid-training. Owns nothing mutable.
 */
public final class DataParallelTraining {
  /** The group of the gradients' all-reduces. */
  public static final String GRADS = "grads";

  /** The group of the settings' broadcast and the final weights' all-gather. */
  public static final String CONTROL = "training";

  private final ClusterAccelerator node;
  private final List<RemoteDevice> members = new ArrayList<>();
  private final int rank;

  /**
   * @param node this member's node
   * @param nodes the members' nodes in rank order, the driver's first; device openreg:0 of each
   *     trains
   * @throws IllegalArgumentException if {@code node} is not one of {@code nodes}
   */
  public DataParallelTraining(ClusterAccelerator node, List<String> nodes) {
    this.node = node;
    for (String member : nodes) {
      members.add(RemoteDevice.parse(member + "/openreg:0"));
    }
    this.rank = nodes.indexOf(node.selfNode());
    if (rank < 0) {
      throw new IllegalArgumentException(node.selfNode() + " is not one of the members " + nodes);
    }
  }

  /** Rank 0: broadcasts {@code settings}, trains its shard, and returns what every member holds. */
  public TrainingResult drive(TrainingSettings settings) {
    if (rank != 0) {
      throw new IllegalStateException("the driver is rank 0; this node is rank " + rank);
    }
    return train(settings, step -> {});
  }

  /**
   * The other ranks: trains with the driver's settings; calls {@code halt} with the step if the
   * driver told this rank to halt there (its process should then end as {@code kill -9} would).
   */
  public TrainingResult follow(IntConsumer halt) {
    if (rank == 0) {
      throw new IllegalStateException("rank 0 is the driver: it calls drive");
    }
    return train(null, halt);
  }

  private TrainingResult train(TrainingSettings mine, IntConsumer halt) {
    Accelerator accelerator = node.accelerator();
    RemoteDevice device = members.get(rank);
    ProcessGroup control = node.collectives().create(CONTROL, members, device);
    ProcessGroup grads = null;
    Stream stream = null;
    List<DeviceBuffer> buffers = new ArrayList<>();
    try {
      grads = node.collectives().create(GRADS, members, device);
      stream = accelerator.newStream(device.device());
      DeviceBuffer wire = accelerator.allocate(device.device(), TrainingSettings.BYTES);
      buffers.add(wire);
      if (mine != null) {
        stream.copyToDevice(ByteBuffer.wrap(mine.toBytes()), wire);
      }
      String start = "before the first step";
      MemberTraining.await(control.broadcast(stream, wire, ElementType.INT64, 0), start);
      TrainingSettings settings = TrainingSettings.fromBytes(read(stream, wire, start));
      try (MemberTraining training = new MemberTraining(accelerator, stream, grads, settings)) {
        long nanos = training.run(halt);
        String end = "after step " + (settings.steps() - 1) + " of " + settings.steps();
        DeviceBuffer all =
            accelerator.allocate(device.device(), training.weights().size() * members.size());
        buffers.add(all);
        MemberTraining.await(
            control.allGather(stream, training.weights(), all, ElementType.FLOAT32), end);
        return new TrainingResult(
            settings,
            members.size(),
            rank,
            read(stream, all, end),
            read(stream, training.losses(), end),
            nanos);
      }
    } catch (TrainingFailure failure) {
      if (stream != null) {
        // What the stream still runs (the steps enqueued after the one that failed) fails too;
        // let it end before the stream closes, so the failure is reported once: this one.
        stream
            .synchronizeAsync()
            .toCompletableFuture()
            .handle((ok, same) -> null)
            .orTimeout(MemberTraining.STEP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
            .exceptionally(late -> null)
            .join();
      }
      throw failure;
    } finally {
      buffers.forEach(DeviceBuffer::close);
      if (stream != null) {
        stream.close();
      }
      if (grads != null) {
        grads.destroy();
      }
      control.destroy();
    }
  }

  private static byte[] read(Stream stream, DeviceBuffer buffer, String where) {
    ByteBuffer host = ByteBuffer.allocate((int) buffer.size());
    stream.copyToHost(buffer, host);
    MemberTraining.finish(stream, where);
    return host.array();
  }
}
