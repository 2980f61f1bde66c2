package dev.openaccel.cluster;

import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.trace.TraceBus;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.pekko.actor.Cancellable;
import org.apache.pekko.actor.typed.ActorSystem;
import scala.concurrent.ExecutionContextExecutor;

/**
 * Numbers and enqueues the operations of one member of a {@link ProcessGroup}, once the group has
 * checked the call: collectives in one sequence per group, sends and receives in one sequence per
 * direction of each pair. Once an operation has started, it fails if it has not ended within {@code
 * openaccel.cluster.collectives.op-timeout}: a timer of the actor system's scheduler, run on the
 * collectives dispatcher, so no thread waits for it. Each operation is traced ({@link
 * CollectiveTrace}). Each operation works on a host array of its group's {@link HostArrays}, given
 * back once its {@link Work} succeeded. Internal.
 *
 * <p>Owns: the counters and the count of operations not ended (atomic; the operation that ends last
 * after {@link #destroy} runs what the group does at its end), and the group's host arrays.
 */
final class GroupOps {
  private final GroupChannel channel;
  private final int chunk;
  private final Duration timeout;
  private final ExecutionContextExecutor executor;
  private final ActorSystem<?> system;
  private final TraceBus trace;
  private final ChunkPool pool;
  private final HostArrays arrays = new HostArrays();
  private final AtomicLong collectives = new AtomicLong();
  private final Map<Integer, AtomicLong> pairs = new ConcurrentHashMap<>();
  // The operations enqueued and not ended, plus one while the group is not destroyed.
  private final AtomicInteger pending = new AtomicInteger(1);
  private volatile Runnable ended; // written once, by destroy, before its release

  GroupOps(
      GroupChannel channel,
      CollectiveSettings settings,
      ExecutionContextExecutor executor,
      ActorSystem<?> system,
      TraceBus trace) {
    this.channel = channel;
    this.chunk = settings.chunk();
    this.timeout = settings.opTimeout();
    this.executor = executor;
    this.system = system;
    this.trace = trace;
    this.pool = ChunkPool.of(system);
  }

  /**
   * A host array of {@code length} bytes for the next operation (content unspecified: the operation
   * writes every byte before it reads it), which gives it back when its {@link Work} succeeded.
   */
  byte[] hostArray(int length) {
    return arrays.take(length);
  }

  HostArrays hostArrays() {
    return arrays;
  }

  /**
   * Enqueues the next collective, {@code call(arguments)}, on {@code stream}; {@code inHost} and
   * {@code outHost} (or those not null) wrap one array from {@link #hostArray}.
   */
  Work collective(
      String call,
      String arguments,
      Stream stream,
      HostOrder elements,
      DeviceBuffer input,
      ByteBuffer inHost,
      DeviceBuffer output,
      ByteBuffer outHost,
      Function<Ring, CompletableFuture<Void>> algorithm) {
    long seq = collectives.getAndIncrement();
    String what =
        call + " #" + seq + " of group '" + channel.group() + "' on rank " + channel.rank();
    List<Integer> peers = new ArrayList<>();
    for (int member = 0; member < channel.size(); member++) {
      if (member != channel.rank()) {
        peers.add(member);
      }
    }
    CollectiveTrace traced = traceOf(stream, call, seq, input, output);
    OpRun run =
        new OpRun(
            channel, seq, false, 0, what, call + "(" + arguments + ")", peers, executor, traced);
    return enqueue(stream, what, run, traced, elements, input, inHost, output, outHost, algorithm);
  }

  /**
   * Enqueues the next transfer from rank {@code from} to the other of this pair, on {@code work}
   * from {@link #hostArray}.
   */
  Work pointToPoint(
      String call,
      Stream stream,
      HostOrder elements,
      long count,
      int peer,
      int from,
      DeviceBuffer input,
      byte[] work,
      DeviceBuffer output,
      Function<Ring, CompletableFuture<Void>> algorithm) {
    int to = from == channel.rank() ? peer : channel.rank();
    // Numbered per direction: this pair's sends from `from` to `to`.
    long seq =
        pairs
            .computeIfAbsent(from * GroupChannel.MAX_MEMBERS + to, k -> new AtomicLong())
            .getAndIncrement();
    String what =
        call
            + " #"
            + seq
            + (from == channel.rank() ? " to" : " from")
            + " rank "
            + peer
            + " of group '"
            + channel.group()
            + "' on rank "
            + channel.rank();
    String descriptor =
        "send/recv(" + elements.type() + " x " + count + ", rank " + from + " to rank " + to + ")";
    CollectiveTrace traced = traceOf(stream, call, seq, input, output);
    OpRun run =
        new OpRun(
            channel,
            seq,
            true,
            from == channel.rank() ? 0 : 1,
            what,
            descriptor,
            List.of(peer),
            executor,
            traced);
    return enqueue(
        stream,
        what,
        run,
        traced,
        elements,
        input,
        ByteBuffer.wrap(work),
        output,
        ByteBuffer.wrap(work),
        algorithm);
  }

  private Work enqueue(
      Stream stream,
      String what,
      OpRun run,
      CollectiveTrace traced,
      HostOrder elements,
      DeviceBuffer input,
      ByteBuffer inHost,
      DeviceBuffer output,
      ByteBuffer outHost,
      Function<Ring, CompletableFuture<Void>> algorithm) {
    Ring ring = new Ring(run, channel.size(), channel.rank(), chunk, executor, pool);
    ByteBuffer anyHost = inHost != null ? inHost : outHost;
    byte[] host = anyHost == null ? null : anyHost.array();
    pending.incrementAndGet();
    Work work;
    try {
      work =
          StreamSlot.enqueue(
              stream,
              what,
              input,
              inHost,
              output,
              outHost,
              () ->
                  start(
                      run,
                      traced,
                      elements.around(
                          input == null ? null : inHost,
                          output == null ? null : outHost,
                          executor,
                          () -> channel.size() == 1 ? Ring.done() : algorithm.apply(ring))),
              executor,
              system);
    } catch (RuntimeException e) {
      run.abandon(e); // its number is taken: the peers must fail it too
      release();
      throw e;
    }
    work.completion()
        .whenComplete(
            (value, failure) -> {
              traced.ended(failure != null);
              if (failure == null && host != null) {
                arrays.give(host); // every reader of it has finished (see HostArrays)
              }
              release();
            });
    return work;
  }

  /** The stream reached the operation: it runs, under its timeout. */
  private CompletableFuture<Void> start(
      OpRun run, CollectiveTrace traced, Supplier<CompletableFuture<Void>> algorithm) {
    traced.started();
    CompletableFuture<Void> result = run.run(algorithm);
    Cancellable timer =
        system.scheduler().scheduleOnce(timeout, () -> run.timedOut(timeout), executor);
    result.whenComplete((value, failure) -> timer.cancel());
    return result;
  }

  private CollectiveTrace traceOf(
      Stream stream, String call, long seq, DeviceBuffer input, DeviceBuffer output) {
    long bytes = Math.max(input == null ? 0 : input.size(), output == null ? 0 : output.size());
    return new CollectiveTrace(
        trace, stream.device(), stream.id(), channel.group(), call, seq, bytes);
  }

  /** The group was destroyed: {@code ended} runs once every operation enqueued has ended. */
  void destroy(Runnable ended) {
    this.ended = ended;
    release();
  }

  private void release() {
    if (pending.decrementAndGet() == 0) {
      ended.run();
    }
  }
}
