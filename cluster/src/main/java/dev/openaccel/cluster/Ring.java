package dev.openaccel.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * The algorithms of the collectives on one member, over a host array {@code work} that holds this
 * member's data and receives the result. Every transfer is cut into pieces of at most the chunk
 * size, and each piece moves on as soon as it arrived (and was reduced), so the steps overlap: a
 * pipeline. Internal; a new one per operation.
 *
 * <p>Ring all-reduce of n members: the elements are cut into n segments ({@code k * count / n} to
 * {@code (k + 1) * count / n}). Reduce-scatter, steps 0 to n-2: at step s member r sends segment
 * r-s-1 to member r+1 and receives segment r-s-2 from r-1, which it reduces and sends on at step
 * s+1; so segment k starts at member k+1 and ends, complete, at member k. All-gather, steps n-1 to
 * 2n-3: each member sends its complete segment around the ring, and every member stores and
 * forwards what it receives. Each member sends and receives 2(n-1)/n of the data.
 *
 * <p>Determinism: a partial result that arrives is always the left operand and the member's own
 * value the right one, so segment k is {@code ((x[k+1] op x[k+2]) op ...) op x[k]}, indices modulo
 * n, whatever the timing; an average divides that once, at member k. Every member then receives
 * member k's bytes of segment k, so all members hold bit-identical results, and a rerun with the
 * same inputs and member list gives the same bits. Reduce to a root follows the chain from root+1
 * round to the root: {@code ((x[root+1] op x[root+2]) op ...) op x[root]}.
 *
 * <p>Arrays: nothing here allocates per piece. A piece that arrived is this operation's alone: it
 * is reduced in place, sent on handed over ({@link BulkSource#handedOver}), or, once stored in
 * {@code work}, given back to the {@link ChunkPool} (which keeps only whole-chunk arrays, the ones
 * the serializer decodes into). A piece of {@code work} itself is sent as pooled copies made when
 * the bulk lane reads it ({@link BulkSource#copied}): the serializer reads a slice only after the
 * send completed, and {@code work} is reused once the operation ended ({@link HostArrays}). The one
 * exception is the first step of the all-reduce, the hot path, which sends its slices of {@code
 * work} as they are: that region is written again only by the all-gather, with segment r-1 coming
 * back from member r-1, whose bytes were reduced from these ones, so each slice was encoded (read)
 * before its region is overwritten and before the operation can end. That holds because the flat
 * ring all-reduce runs only when every member is on a node of its own, and the ring among a
 * hierarchical all-reduce's first members has one member per node, so every such send crosses the
 * network (a message to a member of the same node is copied at once anyway); and because the bulk
 * lane never encodes a chunk twice (a lost chunk fails its transfer, nothing is resent).
 */
final class Ring {
  private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);

  private final Messages op;
  private final int n;
  private final int rank;
  private final int chunk;
  private final Executor executor;
  private final ChunkPool pool;

  Ring(Messages op, int members, int rank, int chunk, Executor executor, ChunkPool pool) {
    this.op = op;
    this.n = members;
    this.rank = rank;
    this.chunk = chunk;
    this.executor = executor;
    this.pool = pool;
  }

  /** A completed stage: an algorithm with nothing to send (a barrier, a group of one). */
  static CompletableFuture<Void> done() {
    return DONE;
  }

  /** Reduce-scatter then all-gather over the segments {@code bounds} of {@code work}. */
  CompletableFuture<Void> allReduce(byte[] work, int[] bounds, ElementType type, ReduceOp reduce) {
    List<CompletableFuture<Void>> pieces = new ArrayList<>();
    Pieces.forEach(
        bounds,
        chunk,
        (k, j, from, length) -> {
          pieces.add(scatter(work, k, j, from, length, type, reduce, true));
          if (k != rank) {
            pieces.add(gather(work, k, j, from, length, n - 1));
          }
        });
    return OpRun.all(pieces);
  }

  /**
   * The all-reduce of a small {@code work} as one exchange between all members ({@link
   * DirectAllReduce}), reducing each segment of {@code bounds} in the ring's order.
   */
  CompletableFuture<Void> allReduceDirect(
      byte[] work, int[] bounds, ElementType type, ReduceOp reduce) {
    return new DirectAllReduce(op, n, rank, chunk, executor).run(work, bounds, type, reduce);
  }

  /**
   * The all-reduce of {@code work} of {@code count} elements as the group calls for: hierarchical
   * when some node holds several members ({@link HierarchicalAllReduce}), else the direct exchange
   * if {@code direct} (a small input), else round the ring.
   */
  CompletableFuture<Void> allReduce(
      byte[] work,
      long count,
      NodeLayout layout,
      ElementType type,
      ReduceOp reduce,
      boolean direct) {
    if (layout.shared()) {
      return new HierarchicalAllReduce(op, layout, rank, chunk, executor, pool)
          .run(work, count, type, reduce, direct);
    }
    int[] segments = Pieces.segments(count, type.size(), n);
    return direct
        ? allReduceDirect(work, segments, type, reduce)
        : allReduce(work, segments, type, reduce);
  }

  /** Reduce-scatter: block {@code rank} of {@code work} ends complete on this member. */
  CompletableFuture<Void> reduceScatter(
      byte[] work, int[] bounds, ElementType type, ReduceOp reduce) {
    List<CompletableFuture<Void>> pieces = new ArrayList<>();
    Pieces.forEach(
        bounds,
        chunk,
        (k, j, from, length) -> pieces.add(scatter(work, k, j, from, length, type, reduce, false)));
    return OpRun.all(pieces);
  }

  /** All-gather: every member's block {@code rank} ends in every member's {@code work}. */
  CompletableFuture<Void> allGather(byte[] work, int[] bounds) {
    List<CompletableFuture<Void>> pieces = new ArrayList<>();
    Pieces.forEach(
        bounds, chunk, (k, j, from, length) -> pieces.add(gather(work, k, j, from, length, 0)));
    return OpRun.all(pieces);
  }

  /** Broadcast from {@code root} along the ring. */
  CompletableFuture<Void> broadcast(byte[] work, int root) {
    int d = Math.floorMod(rank - root, n);
    List<CompletableFuture<Void>> pieces = new ArrayList<>();
    Pieces.forEach(
        work.length,
        chunk,
        (k, j, from, length) -> {
          pieces.add(
              d == 0
                  ? op.send(right(), 0, j, copied(work, from, length))
                  : storeAndForward(work, from, length, j, d - 1, d == n - 1));
        });
    return OpRun.all(pieces);
  }

  /** Reduce to {@code root} along the chain from root+1. */
  CompletableFuture<Void> reduce(byte[] work, int root, ElementType type, ReduceOp reduce) {
    int d = Math.floorMod(rank - root, n);
    List<CompletableFuture<Void>> pieces = new ArrayList<>();
    Pieces.forEach(
        work.length,
        chunk,
        (k, j, from, length) -> {
          if (d == 1) {
            pieces.add(op.send(right(), 0, j, copied(work, from, length)));
            return;
          }
          int step = d == 0 ? n - 2 : d - 2;
          pieces.add(
              op.take(left(), step, j)
                  .thenComposeAsync(
                      p -> {
                        Reduction.combine(type, reduce, p, work, from);
                        if (d != 0) {
                          return passOn(right(), d - 1, j, p);
                        }
                        finish(p, work, from, type, reduce);
                        return recycled(p);
                      },
                      executor));
        });
    return OpRun.all(pieces);
  }

  /** Sends all of {@code work} to {@code peer}. */
  CompletableFuture<Void> send(byte[] work, int peer) {
    List<CompletableFuture<Void>> pieces = new ArrayList<>();
    Pieces.forEach(
        work.length,
        chunk,
        (k, j, from, length) -> pieces.add(op.send(peer, 0, j, copied(work, from, length))));
    return OpRun.all(pieces);
  }

  /** Receives all of {@code work} from {@code peer}. */
  CompletableFuture<Void> receive(byte[] work, int peer) {
    List<CompletableFuture<Void>> pieces = new ArrayList<>();
    Pieces.forEach(
        work.length,
        chunk,
        (k, j, from, length) ->
            pieces.add(
                op.take(peer, 0, j)
                    .thenAcceptAsync(
                        q -> {
                          System.arraycopy(q, 0, work, from, length);
                          pool.give(q);
                        },
                        executor)));
    return OpRun.all(pieces);
  }

  private CompletableFuture<Void> scatter(
      byte[] work,
      int k,
      int j,
      int from,
      int length,
      ElementType type,
      ReduceOp reduce,
      boolean gather) {
    if (k == Math.floorMod(rank - 1, n)) {
      // In an all-reduce (gather), sent as it is: see the class comment.
      BulkSource mine = gather ? BulkSource.of(work, from, length) : copied(work, from, length);
      return op.send(right(), 0, j, mine);
    }
    int s = Math.floorMod(rank - k - 2, n);
    return op.take(left(), s, j)
        .thenComposeAsync(
            p -> {
              Reduction.combine(type, reduce, p, work, from);
              if (s < n - 2) {
                return passOn(right(), s + 1, j, p);
              }
              finish(p, work, from, type, reduce);
              return gather ? passOn(right(), n - 1, j, p) : recycled(p);
            },
            executor);
  }

  private CompletableFuture<Void> gather(
      byte[] work, int k, int j, int from, int length, int base) {
    if (k == rank) {
      return op.send(right(), base, j, copied(work, from, length));
    }
    int t = Math.floorMod(rank - k - 1, n);
    return storeAndForward(work, from, length, j, base + t, t == n - 2);
  }

  /**
   * Takes piece {@code j} of step {@code step} from the left, stores it in {@code work} at {@code
   * from}, and passes it on as step {@code step + 1} unless this member is the chain's {@code
   * last}.
   */
  private CompletableFuture<Void> storeAndForward(
      byte[] work, int from, int length, int j, int step, boolean last) {
    return op.take(left(), step, j)
        .thenComposeAsync(
            q -> {
              System.arraycopy(q, 0, work, from, length);
              return last ? recycled(q) : passOn(right(), step + 1, j, q);
            },
            executor);
  }

  /**
   * {@code length} bytes of {@code work} from {@code from}, copied when the bulk lane reads them.
   */
  private BulkSource copied(byte[] work, int from, int length) {
    return BulkSource.copied(work, from, length, pool);
  }

  /** Sends on a piece that arrived: this operation no longer touches it. */
  private CompletableFuture<Void> passOn(int member, int step, int piece, byte[] bytes) {
    return op.send(member, step, piece, BulkSource.handedOver(bytes));
  }

  /** A piece that arrived and was stored where it belongs goes back to the chunk pool. */
  private CompletableFuture<Void> recycled(byte[] piece) {
    pool.give(piece);
    return DONE;
  }

  private void finish(byte[] p, byte[] work, int from, ElementType type, ReduceOp reduce) {
    finish(p, work, from, type, reduce, n);
  }

  /**
   * The piece {@code p} of the result is complete: an average of {@code members} is divided once,
   * and it is stored in {@code work} at {@code from}.
   */
  static void finish(
      byte[] p, byte[] work, int from, ElementType type, ReduceOp reduce, int members) {
    if (reduce == ReduceOp.AVERAGE) {
      Reduction.divide(type, p, members);
    }
    System.arraycopy(p, 0, work, from, p.length);
  }

  private int right() {
    return (rank + 1) % n;
  }

  private int left() {
    return Math.floorMod(rank - 1, n);
  }
}
