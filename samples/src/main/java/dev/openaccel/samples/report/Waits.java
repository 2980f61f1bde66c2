package dev.openaccel.samples.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Finds why streams sat idle. The trace bus stamps a record and a wait when the host enqueues them,
 * not when a stream reaches them, so the waits are placed from what the streams did: a gap between
 * two kernels of a stream that waits on other streams ({@link Dependency}) is a {@link Wait} when a
 * kernel of one of those streams ended inside the gap; the latest such end is what released it. A
 * gap nothing explains (the device had no free compute unit, the host had not enqueued yet) is left
 * undrawn, and so is the time before a stream's first kernel.
 */
public final class Waits {
  private Waits() {}

  private record StreamKey(int device, long streamId) {}

  /** The waits of every stream in {@code spans} that waited on another, by start time. */
  public static List<Wait> infer(List<Span> spans, List<Dependency> dependencies) {
    List<Wait> waits = new ArrayList<>();
    Set<StreamKey> waiting =
        dependencies.stream()
            .map(d -> new StreamKey(d.waitDevice(), d.waitStream()))
            .collect(Collectors.toSet());
    for (StreamKey stream : waiting) {
      Set<StreamKey> sources =
          dependencies.stream()
              .filter(d -> d.waitDevice() == stream.device() && d.waitStream() == stream.streamId())
              .map(d -> new StreamKey(d.recordDevice(), d.recordStream()))
              .filter(source -> !source.equals(stream))
              .collect(Collectors.toSet());
      List<Span> released =
          spans.stream()
              .filter(s -> sources.contains(new StreamKey(s.device(), s.streamId())))
              .toList();
      List<Span> own = ownSpans(spans, stream);
      for (int i = 1; i < own.size(); i++) {
        long from = own.get(i - 1).endNanos();
        long to = own.get(i).startNanos();
        released.stream()
            .filter(s -> s.endNanos() > from && s.endNanos() <= to)
            .max(Comparator.comparingLong(Span::endNanos))
            .ifPresent(
                cause -> waits.add(new Wait(stream.device(), stream.streamId(), from, to, cause)));
      }
    }
    waits.sort(Comparator.comparingLong(Wait::startNanos));
    return List.copyOf(waits);
  }

  private static List<Span> ownSpans(List<Span> spans, StreamKey stream) {
    return spans.stream()
        .filter(s -> s.device() == stream.device() && s.streamId() == stream.streamId())
        .sorted(Comparator.comparingLong(Span::startNanos))
        .toList();
  }
}
