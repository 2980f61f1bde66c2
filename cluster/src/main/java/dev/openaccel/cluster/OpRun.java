package dev.openaccel.cluster;

import dev.openaccel.runtime.DeviceExecutionException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * One operation of a process group on one member, once its stream has reached it: first every
 * member involved sends the others its descriptor (the call, the element type, the count, the
 * reduce op, the root), and the algorithm runs only if all agree; then the algorithm's messages.
 * Internal.
 *
 * <p>Failure: any message that cannot be sent or will not come (its node left), a disagreement, an
 * abort from a peer, or the operation's timeout ({@link #timedOut}, naming the members it still
 * waits for) fails the operation with a {@link DeviceExecutionException} whose message starts with
 * the operation ({@code "allReduce #4 of group 'g' on rank 1"}). A member whose operation fails for
 * another reason than a disagreement (which every member sees for itself) sends the others an abort
 * with its reason, so that a member waiting for bytes the failed one will never send fails too.
 * What this operation took and did not get is forgotten when it ends.
 *
 * <p>Owns: the result (completed once), the queue of messages taken, what it waits for ({@link
 * OpWaits}), and whether it started or was abandoned, all thread-safe.
 */
final class OpRun implements Messages {
  private final GroupChannel channel;
  private final long seq;
  private final int kinds; // DESCRIPTOR, DATA and ABORT of collectives, or of point-to-point
  private final int side; // the step of this member's descriptor and abort; the peers' is other
  private final int peerSide;
  private final String what;
  private final String descriptor;
  private final List<Integer> peers;
  private final Executor executor;
  private final CollectiveTrace trace;
  private final OpWaits waits;
  private final Queue<long[]> taken = new ConcurrentLinkedQueue<>();
  private final CompletableFuture<Void> result = new CompletableFuture<>();
  private final AtomicBoolean disagreed = new AtomicBoolean();
  private final AtomicBoolean started = new AtomicBoolean();

  OpRun(
      GroupChannel channel,
      long seq,
      boolean pointToPoint,
      int side,
      String what,
      String descriptor,
      List<Integer> peers,
      Executor executor,
      CollectiveTrace trace) {
    this.channel = channel;
    this.seq = seq;
    this.kinds = pointToPoint ? GroupChannel.ABORT + 1 : GroupChannel.DESCRIPTOR;
    this.side = side;
    this.peerSide = pointToPoint ? 1 - side : side;
    this.what = what;
    this.descriptor = descriptor;
    this.peers = List.copyOf(peers);
    this.executor = executor;
    this.trace = trace;
    this.waits = new OpWaits(channel.size());
  }

  /** Completes when all of {@code stages} have, or fails with the first that fails. */
  static CompletableFuture<Void> all(List<? extends CompletableFuture<?>> stages) {
    CompletableFuture<Void> all = CompletableFuture.allOf(stages.toArray(CompletableFuture[]::new));
    for (CompletableFuture<?> stage : stages) {
      stage.whenComplete(
          (value, failure) -> {
            if (failure != null) {
              all.completeExceptionally(failure);
            }
          });
    }
    return all;
  }

  /** Exchanges descriptors, then runs {@code algorithm} if every peer agrees. */
  CompletableFuture<Void> run(Supplier<CompletableFuture<Void>> algorithm) {
    if (started.getAndSet(true)) {
      return result; // abandoned at the call
    }
    byte[] mine = descriptor.getBytes(StandardCharsets.UTF_8);
    List<CompletableFuture<?>> exchange = new ArrayList<>();
    List<CompletableFuture<byte[]>> theirs = new ArrayList<>();
    for (int peer : peers) {
      // On the executor: an abort from a member of this node arrives on that member's thread,
      // inside its own failure, which this one's would otherwise run within.
      take(peer, GroupChannel.ABORT, peerSide, 0)
          .thenAcceptAsync(reason -> aborted(peer, reason), executor);
      exchange.add(send(peer, GroupChannel.DESCRIPTOR, side, 0, BulkSource.of(mine)));
      theirs.add(take(peer, GroupChannel.DESCRIPTOR, peerSide, 0));
    }
    exchange.addAll(theirs);
    // Compared once all arrived, so that a disagreement leaves no descriptor behind.
    CompletableFuture<Void> agreed =
        all(exchange)
            .thenRun(
                () -> {
                  for (int i = 0; i < peers.size(); i++) {
                    check(peers.get(i), theirs.get(i).join());
                  }
                });
    result.whenComplete((value, failure) -> ended(failure));
    agreed
        .thenComposeAsync(ignored -> algorithm.get(), executor)
        .whenComplete(
            (value, failure) -> {
              if (failure == null) {
                result.complete(null);
              } else {
                fail(failure);
              }
            });
    return result;
  }

  /**
   * The call could not enqueue this operation: it fails here and, by an abort, on the peers, so
   * that every member still counts it and the next operation is aligned.
   */
  void abandon(Throwable failure) {
    if (!started.getAndSet(true)) {
      result.whenComplete((value, failed) -> ended(failed));
    }
    fail(failure);
  }

  /**
   * {@code limit} has passed since the operation started: unless it ended, it fails, naming the
   * members it still waits for, and its abort fails it on the peers.
   */
  void timedOut(Duration limit) {
    if (result.isDone()) {
      return;
    }
    List<Integer> members = waits.members();
    String whom =
        members.isEmpty()
            ? "its own steps (nothing from or to another member is outstanding)"
            : members.stream().map(channel::describe).collect(Collectors.joining(", "));
    fail(
        new DeviceExecutionException(
            what
                + ": timed out after "
                + limit
                + " ("
                + CollectiveSettings.OP_TIMEOUT
                + ") waiting for "
                + whom));
  }

  /** Sends a piece of data of step {@code step} to {@code member}; traced while anybody listens. */
  @Override
  public CompletableFuture<Void> send(int member, int step, int piece, BulkSource bytes) {
    if (!trace.enabled()) {
      return send(member, GroupChannel.DATA, step, piece, bytes);
    }
    long start = System.nanoTime();
    return trace.step(
        send(member, GroupChannel.DATA, step, piece, bytes),
        start,
        step,
        piece,
        (int) bytes.length());
  }

  /** The piece of data of step {@code step} {@code member} sends, when it arrives. */
  @Override
  public CompletableFuture<byte[]> take(int member, int step, int piece) {
    return take(member, GroupChannel.DATA, step, piece);
  }

  private CompletableFuture<Void> send(
      int member, int kind, int step, int piece, BulkSource bytes) {
    if (result.isCompletedExceptionally()) {
      return result; // the operation failed: nothing more goes out for it
    }
    long message = GroupChannel.message(kinds + kind - GroupChannel.DESCRIPTOR, seq, step, piece);
    CompletableFuture<Void> sent = channel.send(member, message, bytes);
    waits.sending(member, sent);
    return sent;
  }

  private CompletableFuture<byte[]> take(int member, int kind, int step, int piece) {
    long message = GroupChannel.message(kinds + kind - GroupChannel.DESCRIPTOR, seq, step, piece);
    taken.add(new long[] {member, message});
    CompletableFuture<byte[]> bytes = channel.take(member, message);
    if (kind != GroupChannel.ABORT) {
      waits.receiving(member, bytes); // an abort is not waited for: it may never come
    }
    if (result.isDone()) {
      forgetTaken(); // ended meanwhile: what it took is forgotten by whichever drains last
    }
    bytes.whenComplete(
        (value, failure) -> {
          if (failure != null) {
            fail(failure);
          }
        });
    return bytes;
  }

  private void check(int peer, byte[] theirs) {
    String other = new String(theirs, StandardCharsets.UTF_8);
    if (!other.equals(descriptor)) {
      disagreed.set(true);
      throw new DeviceExecutionException(
          what
              + ": members disagree: "
              + channel.describe(channel.rank())
              + " called "
              + descriptor
              + " but "
              + channel.describe(peer)
              + " called "
              + other);
    }
  }

  private void aborted(int peer, byte[] reason) {
    fail(
        new DeviceExecutionException(
            what
                + ": "
                + channel.describe(peer)
                + " failed: "
                + new String(reason, StandardCharsets.UTF_8)));
  }

  private void fail(Throwable failure) {
    Throwable inner = Failures.unwrap(failure);
    String message = String.valueOf(inner.getMessage());
    result.completeExceptionally(
        message.startsWith(what)
            ? inner
            : new DeviceExecutionException(what + ": " + message, inner));
  }

  private void ended(Throwable failure) {
    forgetTaken();
    if (failure != null && !disagreed.get()) {
      byte[] reason = String.valueOf(failure.getMessage()).getBytes(StandardCharsets.UTF_8);
      long message = GroupChannel.message(kinds + GroupChannel.ABORT - 1, seq, side, 0);
      peers.forEach(peer -> channel.send(peer, message, reason));
    }
  }

  private void forgetTaken() {
    for (long[] message = taken.poll(); message != null; message = taken.poll()) {
      channel.cancel((int) message[0], message[1]);
    }
  }
}
