package dev.openaccel.samples.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * One collective operation of a process group on one member, as its {@code CollectiveFinished}
 * trace event reported it (on the device clock, {@link System#nanoTime()}), with the pieces of data
 * the member sent for it ({@code CollectiveStep}s). The pieces of one operation are sent as soon as
 * each is ready, so they may overlap in time; {@link #rows()} lays them out so that none of one row
 * overlap.
 *
 * @param device the device index
 * @param streamId the id of the stream the operation was enqueued on
 * @param group the process group's name
 * @param operation what it did, e.g. {@code allReduce}
 * @param number its number within its group, as its messages name it
 * @param bytes the larger of its input and output on this member (0 for a barrier)
 * @param failed whether it failed
 * @param startNanos when its stream reached it
 * @param endNanos when its {@code Work} completed, {@code >= startNanos}
 * @param pieces what it sent, by start time; each within {@code startNanos .. endNanos}
 */
public record Collective(
    int device,
    long streamId,
    String group,
    String operation,
    long number,
    long bytes,
    boolean failed,
    long startNanos,
    long endNanos,
    List<CollectivePiece> pieces) {
  public Collective {
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(operation, "operation");
    if (endNanos < startNanos) {
      throw new IllegalArgumentException(
          operation
              + " #"
              + number
              + " ends at "
              + endNanos
              + " before it starts at "
              + startNanos);
    }
    List<CollectivePiece> sorted = new ArrayList<>(Objects.requireNonNull(pieces, "pieces"));
    sorted.sort(Comparator.comparingLong(CollectivePiece::startNanos));
    for (CollectivePiece piece : sorted) {
      if (piece.startNanos() < startNanos || piece.endNanos() > endNanos) {
        throw new IllegalArgumentException(
            piece.name()
                + " ("
                + piece.startNanos()
                + " .. "
                + piece.endNanos()
                + ") lies outside "
                + operation
                + " #"
                + number
                + " ("
                + startNanos
                + " .. "
                + endNanos
                + ")");
      }
    }
    pieces = List.copyOf(sorted);
  }

  /** What pictures call it: {@code allReduce #3 'grads'}. */
  public String name() {
    return operation + " #" + number + " '" + group + "'";
  }

  public long durationNanos() {
    return endNanos - startNanos;
  }

  /**
   * The pieces in rows, each by start time: a piece goes into the first row whose last piece ended
   * by its start, so no two pieces of a row overlap. Empty when it sent nothing.
   */
  public List<List<CollectivePiece>> rows() {
    List<List<CollectivePiece>> rows = new ArrayList<>();
    for (CollectivePiece piece : pieces) {
      List<CollectivePiece> row =
          rows.stream()
              .filter(r -> r.get(r.size() - 1).endNanos() <= piece.startNanos())
              .findFirst()
              .orElse(null);
      if (row == null) {
        row = new ArrayList<>();
        rows.add(row);
      }
      row.add(piece);
    }
    return rows.stream().map(List::copyOf).toList();
  }
}
