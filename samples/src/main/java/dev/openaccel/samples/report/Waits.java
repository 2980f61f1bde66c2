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
 * undrawn, and so is the time before a stream's first kernel. A stream running a {@link Collective}
 * is busy, not idle: the operation's span closes a gap as a kernel does.
 */
public final class Waits {
  private Waits() {}

  private record StreamKey(int device, long streamId) {}

  private record Busy(long startNanos, long endNanos) {}

  /** The waits of every stream in {@code spans} that waited on another, by start time. */
  public static List<Wait> infer(List<Span> spans, List<Dependency> dependencies) {
    return infer(spans, List.of(), dependencies);
  }

  /**
   * The waits of every stream in {@code spans} that waited on another, by start time; the streams
   * were busy during their kernels and their {@code collectives}.
   */
  public static List<Wait> infer(
      List<Span> spans, List<Collective> collectives, List<Dependency> dependencies) {
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
      List<Busy> own = busy(spans, collectives, stream);
      long from = own.isEmpty() ? 0 : own.get(0).endNanos();
      for (int i = 1; i < own.size(); i++) {
        long gapFrom = from;
        long to = own.get(i).startNanos();
        from = Math.max(from, own.get(i).endNanos());
        if (to <= gapFrom) {
          continue; // inside an operation's span, or right after the previous kernel
        }
        released.stream()
            .filter(s -> s.endNanos() > gapFrom && s.endNanos() <= to)
            .max(Comparator.comparingLong(Span::endNanos))
            .ifPresent(
                cause ->
                    waits.add(new Wait(stream.device(), stream.streamId(), gapFrom, to, cause)));
      }
    }
    waits.sort(Comparator.comparingLong(Wait::startNanos));
    return List.copyOf(waits);
  }

  /** When {@code stream} ran kernels or collective operations, by start time. */
  private static List<Busy> busy(List<Span> spans, List<Collective> collectives, StreamKey stream) {
    List<Busy> busy = new ArrayList<>();
    spans.stream()
        .filter(s -> s.device() == stream.device() && s.streamId() == stream.streamId())
        .forEach(s -> busy.add(new Busy(s.startNanos(), s.endNanos())));
    collectives.stream()
        .filter(c -> c.device() == stream.device() && c.streamId() == stream.streamId())
        .forEach(c -> busy.add(new Busy(c.startNanos(), c.endNanos())));
    busy.sort(Comparator.comparingLong(Busy::startNanos));
    return busy;
  }
}
