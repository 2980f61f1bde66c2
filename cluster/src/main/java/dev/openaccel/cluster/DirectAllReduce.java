package dev.openaccel.cluster;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * The all-reduce of a small buffer on one member, as one exchange: the member sends its whole input
 * to every other member (in pieces of at most the chunk size, all at once) and reduces all n inputs
 * itself. It takes one step where the {@link Ring} takes 2(n-1) one after the other, at the price
 * of sending n-1 times its input instead of 2(n-1)/n of it, so it pays where the time is latency,
 * not bytes. Internal; a new one per operation.
 *
 * <p>Chosen over recursive doubling or a tree: those take about log2(n) steps instead of one, need
 * extra steps when n is not a power of two (3 members), and their reduction order differs from the
 * ring's; groups here have few members, so one step of n-1 messages is the shorter path.
 *
 * <p>Determinism: each member reduces segment k of the elements (the ring's segments) in the ring's
 * order, {@code ((x[k+1] op x[k+2]) op ...) op x[k]}, indices modulo n, and divides an average
 * once. Every member computes from the same inputs in the same order, so all hold bit-identical
 * results, and these are the bits the ring gives: which algorithm ran never changes the result.
 *
 * <p>Owns nothing mutable but {@code work}'s result ranges, each written once, by the reduction of
 * its piece (on the collectives dispatcher).
 */
final class DirectAllReduce {
  private final Messages op;
  private final int n;
  private final int rank;
  private final int chunk;
  private final Executor executor;

  DirectAllReduce(Messages op, int members, int rank, int chunk, Executor executor) {
    this.op = op;
    this.n = members;
    this.rank = rank;
    this.chunk = chunk;
    this.executor = executor;
  }

  /** Exchanges {@code work} with every member, then reduces it over the segments {@code bounds}. */
  CompletableFuture<Void> run(byte[] work, int[] bounds, ElementType type, ReduceOp reduce) {
    List<CompletableFuture<?>> stages = new ArrayList<>();
    Pieces.forEach(
        work.length,
        chunk,
        (k, piece, from, length) -> {
          // A copy: the piece's result is written into work while the sends may still read it.
          byte[] mine = Arrays.copyOfRange(work, from, from + length);
          List<CompletableFuture<byte[]>> inputs = new ArrayList<>();
          for (int member = 0; member < n; member++) {
            if (member == rank) {
              inputs.add(CompletableFuture.completedFuture(mine));
            } else {
              stages.add(op.send(member, 0, piece, BulkSource.of(mine))); // never written again
              inputs.add(op.take(member, 0, piece));
            }
          }
          stages.add(
              OpRun.all(inputs)
                  .thenRunAsync(
                      () -> reducePiece(work, from, inputs, bounds, type, reduce), executor));
        });
    return OpRun.all(stages);
  }

  /**
   * Reduces the piece at {@code from} of every member's input ({@code inputs}, by rank) into {@code
   * work}, segment by segment in the ring's order.
   */
  private void reducePiece(
      byte[] work,
      int from,
      List<CompletableFuture<byte[]>> inputs,
      int[] bounds,
      ElementType type,
      ReduceOp reduce) {
    byte[][] x = new byte[n][];
    for (int member = 0; member < n; member++) {
      x[member] = inputs.get(member).join(); // all completed
    }
    int to = from + x[rank].length;
    for (int k = 0; k < n; k++) {
      int a = Math.max(from, bounds[k]);
      int b = Math.min(to, bounds[k + 1]);
      if (a >= b) {
        continue;
      }
      byte[] acc = Arrays.copyOfRange(x[(k + 1) % n], a - from, b - from);
      for (int i = 2; i <= n; i++) {
        Reduction.combine(type, reduce, acc, x[(k + i) % n], a - from);
      }
      Ring.finish(acc, work, a, type, reduce, n);
    }
  }
}
