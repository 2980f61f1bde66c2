package dev.openaccel.cluster;

import java.util.concurrent.CompletableFuture;

/**
 * The data messages of one operation, as its algorithms ({@link Ring}, {@link DirectAllReduce},
 * {@link HierarchicalAllReduce}) send and take them: by member, step and piece. {@link OpRun}
 * addresses the group's ranks; {@link #among} renumbers a subset of them, so that an algorithm
 * written for members 0 to n-1 runs over, say, one member per node. Internal.
 */
interface Messages {
  /** Sends a piece of data of step {@code step} to {@code member}. */
  CompletableFuture<Void> send(int member, int step, int piece, BulkSource bytes);

  /** The piece of data of step {@code step} {@code member} sends, when it arrives. */
  CompletableFuture<byte[]> take(int member, int step, int piece);

  /** These messages among {@code ranks} only: member i of the view is {@code ranks[i]}. */
  static Messages among(Messages all, int[] ranks) {
    int[] members = ranks.clone();
    return new Messages() {
      @Override
      public CompletableFuture<Void> send(int member, int step, int piece, BulkSource bytes) {
        return all.send(members[member], step, piece, bytes);
      }

      @Override
      public CompletableFuture<byte[]> take(int member, int step, int piece) {
        return all.take(members[member], step, piece);
      }
    };
  }
}
