package dev.openaccel.samples.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Finds the kernels of each graph replay on its launching stream. The trace bus stamps a replay's
 * launch when the host enqueues it, and its end when it ended; a stream runs its work in order, so
 * replay {@code k} on a stream ran the kernels that started at or after both its launch and the end
 * of the stream's previous replay's last kernel (replays in launch order, then end order), and
 * ended by its end (the runtime stamps the launch before it enqueues the replay, so its first
 * kernel never starts before the stamp). Kernels the host enqueued on that stream between two
 * replays look the same and are counted into the later one. A replay that ran no traced kernel on
 * its stream (work a backend runs on the device is not traced as kernels) has nothing to enclose
 * and is left out.
 */
public final class Replays {
  private Replays() {}

  /** The replays of {@code replays} that ran kernels of {@code spans}, by start time. */
  public static List<ReplaySpan> place(List<Span> spans, List<GraphReplay> replays) {
    List<GraphReplay> byLaunch = new ArrayList<>(replays);
    byLaunch.sort(
        Comparator.comparingLong(GraphReplay::launchedNanos)
            .thenComparingLong(GraphReplay::endedNanos));
    List<ReplaySpan> placed = new ArrayList<>();
    Set<Span> claimed = new HashSet<>();
    for (GraphReplay replay : byLaunch) {
      long from =
          placed.stream()
              .filter(p -> p.device() == replay.device() && p.streamId() == replay.streamId())
              .mapToLong(ReplaySpan::endNanos)
              .max()
              .orElse(Long.MIN_VALUE);
      long after = Math.max(from, replay.launchedNanos());
      List<Span> kernels =
          spans.stream()
              .filter(s -> s.device() == replay.device() && s.streamId() == replay.streamId())
              .filter(s -> s.startNanos() >= after && s.endNanos() <= replay.endedNanos())
              .filter(s -> !claimed.contains(s))
              .sorted(Comparator.comparingLong(Span::startNanos))
              .toList();
      if (!kernels.isEmpty()) {
        claimed.addAll(kernels);
        placed.add(
            new ReplaySpan(
                replay.device(),
                replay.streamId(),
                replay.graphId(),
                replay.replay(),
                replay.failed(),
                kernels));
      }
    }
    placed.sort(Comparator.comparingLong(ReplaySpan::startNanos));
    return List.copyOf(placed);
  }
}
