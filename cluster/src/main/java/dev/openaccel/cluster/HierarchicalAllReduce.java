package dev.openaccel.cluster;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * The all-reduce of a group some of whose nodes hold several members ({@link NodeLayout}), on one
 * member. Each node's members hand their input to the node's first member, in memory (messages
 * between members of one node never leave it, {@link GroupChannel}); the first members reduce their
 * node's inputs, run the all-reduce among themselves, one per node ({@link Ring}, or {@link
 * DirectAllReduce} for a small input), and hand the result back to their node's other members. So
 * one stream of data per node crosses the network instead of one per member. Messages inside a node
 * are slices of {@code work}: a message to a member of this node is copied when it is sent ({@link
 * GroupChannel#send}), so the region may change right after. The three phases run one after the
 * other (each piece moves on at once within a phase, as in the ring, but the ring across nodes
 * starts once the node's inputs are all reduced, and the hand-back once it ended). Internal; a new
 * one per operation.
 *
 * <p>Determinism: node j's input is {@code y[j] = ((x[a0] op x[a1]) op ...) op x[ac]}, its members
 * {@code a0 < a1 < ... < ac} in rank order; the nodes are numbered in the order their first member
 * appears in the member list, and segment k of the m nodes' segments is {@code ((y[k+1] op y[k+2])
 * op ...) op y[k]}, nodes modulo m, as the ring and the direct exchange both reduce. An average is
 * that sum divided once by the member count, by each first member from the same bits. The order
 * depends on the member list only, never on timing, and every member ends with its first member's
 * bytes: all members hold bit-identical results, the same bits run to run (not the bits of the flat
 * ring, whose order differs).
 *
 * <p>Owns nothing mutable but {@code work}'s ranges, each written by one stage at a time (on the
 * collectives dispatcher).
 */
final class HierarchicalAllReduce {
  /** The step of a member's input on its way to its node's first member. */
  static final int TO_FIRST = 1022;

  /** The step of the result on its way from a node's first member to the node's other members. */
  static final int FROM_FIRST = 1023;

  private final Messages op;
  private final NodeLayout layout;
  private final int rank;
  private final int chunk;
  private final Executor executor;
  private final ChunkPool pool;

  HierarchicalAllReduce(
      Messages op, NodeLayout layout, int rank, int chunk, Executor executor, ChunkPool pool) {
    this.op = op;
    this.layout = layout;
    this.rank = rank;
    this.chunk = chunk;
    this.executor = executor;
    this.pool = pool;
  }

  /**
   * All-reduces {@code work} of {@code count} elements; across nodes by one direct exchange if
   * {@code direct}, else round the ring.
   */
  CompletableFuture<Void> run(
      byte[] work, long count, ElementType type, ReduceOp reduce, boolean direct) {
    int node = layout.nodeOf(rank);
    int[] local = layout.ranksOf(node);
    int first = local[0];
    if (rank != first) {
      List<CompletableFuture<?>> stages = new ArrayList<>();
      Pieces.forEach(
          work.length,
          chunk,
          (k, piece, from, length) -> {
            stages.add(op.send(first, TO_FIRST, piece, BulkSource.of(work, from, length)));
            stages.add(
                op.take(first, FROM_FIRST, piece)
                    .thenAcceptAsync(q -> System.arraycopy(q, 0, work, from, length), executor));
          });
      return OpRun.all(stages);
    }
    return reduceInNode(work, local, type, reduce)
        .thenComposeAsync(v -> acrossNodes(work, count, node, type, reduce, direct), executor)
        .thenComposeAsync(v -> handBack(work, local, type, reduce), executor);
  }

  /** The node's inputs reduced into {@code work}, piece by piece, in rank order. */
  private CompletableFuture<Void> reduceInNode(
      byte[] work, int[] local, ElementType type, ReduceOp reduce) {
    if (local.length == 1) {
      return Ring.done(); // the node's only member: its input is the node's
    }
    List<CompletableFuture<?>> stages = new ArrayList<>();
    Pieces.forEach(
        work.length,
        chunk,
        (k, piece, from, length) -> {
          List<CompletableFuture<byte[]>> inputs = new ArrayList<>();
          for (int i = 1; i < local.length; i++) {
            inputs.add(op.take(local[i], TO_FIRST, piece));
          }
          stages.add(
              OpRun.all(inputs)
                  .thenRunAsync(
                      () -> {
                        byte[] acc = Arrays.copyOfRange(work, from, from + length);
                        for (CompletableFuture<byte[]> input : inputs) {
                          Reduction.combine(type, reduce, acc, input.join(), 0); // all completed
                        }
                        System.arraycopy(acc, 0, work, from, length);
                      },
                      executor));
        });
    return OpRun.all(stages);
  }

  /** The nodes' reductions all-reduced among the first members, without an average's division. */
  private CompletableFuture<Void> acrossNodes(
      byte[] work, long count, int node, ElementType type, ReduceOp reduce, boolean direct) {
    int nodes = layout.nodes();
    if (nodes == 1) {
      return Ring.done();
    }
    Ring firsts = new Ring(Messages.among(op, layout.firsts()), nodes, node, chunk, executor, pool);
    int[] segments = Pieces.segments(count, type.size(), nodes);
    ReduceOp sum = reduce == ReduceOp.AVERAGE ? ReduceOp.SUM : reduce;
    return direct
        ? firsts.allReduceDirect(work, segments, type, sum)
        : firsts.allReduce(work, segments, type, sum);
  }

  /** An average divided by the member count, then the result to the node's other members. */
  private CompletableFuture<Void> handBack(
      byte[] work, int[] local, ElementType type, ReduceOp reduce) {
    if (reduce == ReduceOp.AVERAGE) {
      Reduction.divide(type, work, layout.members());
    }
    if (local.length == 1) {
      return Ring.done();
    }
    List<CompletableFuture<?>> stages = new ArrayList<>();
    Pieces.forEach(
        work.length,
        chunk,
        (k, piece, from, length) -> {
          for (int i = 1; i < local.length; i++) {
            stages.add(op.send(local[i], FROM_FIRST, piece, BulkSource.of(work, from, length)));
          }
        });
    return OpRun.all(stages);
  }
}
