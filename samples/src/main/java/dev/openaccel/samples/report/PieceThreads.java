package dev.openaccel.samples.report;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The extra threads {@link ChromeTrace} gives a lane whose collective operations had pieces in
 * flight at once: a lane needs as many rows as the most {@link Collective#rows()} of its
 * operations; the first is the stream's own thread, and each further row a thread whose id is above
 * every stream id of the timeline, numbered in lane order. Immutable.
 */
final class PieceThreads {
  private final Map<Track, Integer> rows = new HashMap<>();
  private final Map<Track, Long> firstTid = new HashMap<>();

  PieceThreads(Timeline timeline) {
    List<Track> tracks = timeline.tracks();
    long next = tracks.stream().mapToLong(Track::streamId).max().orElse(0) + 1;
    for (Track track : tracks) {
      int most =
          timeline.collectivesOf(track).stream().mapToInt(c -> c.rows().size()).max().orElse(0);
      rows.put(track, most);
      firstTid.put(track, next);
      next += Math.max(0, most - 1);
    }
  }

  /** How many rows the pieces of {@code track}'s operations need; 0 when they sent nothing. */
  int rows(Track track) {
    return rows.getOrDefault(track, 0);
  }

  /** The thread id of row {@code row} (from 1) of {@code track}. */
  long tid(Track track, int row) {
    if (row < 1 || row >= rows(track)) {
      throw new IllegalArgumentException(
          "row " + row + " of " + track.title() + ", which has " + rows(track) + " rows");
    }
    return firstTid.get(track) + row - 1;
  }
}
